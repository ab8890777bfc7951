/**
 * PLATFORM_REPLICAS=checkout,webhooks,…: a second copy (NAME-2) of each named service, as a Deployment
 * at two replicas runs it: the same databases, NATS and settings, listeners of its own. Its gRPC listener
 * is on a port chosen here, and every other service is given both copies' addresses (`ipv4:a,b`), so
 * its gRPC client spreads the calls over them per call and passes over a copy that is down (@hc/grpc
 * balances a target that names several servers; docs/adr/0092). Its other listeners (a service's own
 * addresses are the variables named after it, e.g. SETTLEMENT_NOTICES_ADDRESS) are given port 0.
 * The gateway's second copy is placed by the runner (PLATFORM_GATEWAY_2_PORT, behind the front router).
 * docs/replicas.md, docs/adr/0099.
 */
import { createServer } from 'node:net';

export interface Replicas {
  has(name: string): boolean;
  /** `env` of the service `name` as its second copy runs it. */
  copyEnv(name: string, env: Record<string, string>): Record<string, string>;
  /** `env` of the service `name` with every other replicated service's gRPC address naming both copies. */
  clientEnv(name: string, env: Record<string, string>): Record<string, string>;
}

/** A port nothing listens on now (the system's pick), for a listener started a moment later. */
async function freeLocalPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function replicatedNames(env: NodeJS.ProcessEnv): Set<string> {
  return new Set(
    (env['PLATFORM_REPLICAS'] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

export async function planReplicas(names: ReadonlySet<string>): Promise<Replicas> {
  const grpcPorts = new Map<string, number>();
  for (const name of names) grpcPorts.set(`${name.toUpperCase()}_GRPC_ADDRESS`, await freeLocalPort());
  return {
    has: (name) => names.has(name),
    copyEnv(name, env) {
      const own = `${name.toUpperCase()}_`;
      const copy = { ...env };
      for (const variable of Object.keys(env).filter((v) => v.startsWith(own) && v.endsWith('_ADDRESS'))) {
        const port = grpcPorts.get(variable);
        copy[variable] = `127.0.0.1:${port ?? 0}`;
      }
      return copy;
    },
    clientEnv(name, env) {
      const own = `${name.toUpperCase()}_`;
      const balanced = { ...env };
      for (const [variable, address] of Object.entries(env)) {
        const port = grpcPorts.get(variable);
        // Only a plain IPv4 host:port can be listed in an `ipv4:` target; anything else is left as given.
        if (port === undefined || variable.startsWith(own) || !/^\d+\.\d+\.\d+\.\d+:\d+$/.test(address)) continue;
        balanced[variable] = `ipv4:${address},127.0.0.1:${port}`;
      }
      return balanced;
    },
  };
}
