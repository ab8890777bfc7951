/**
 * The images' HEALTHCHECK (deploy/docker/Dockerfile): asks the service in this container the question
 * the chart's readinessProbe asks it, with the same checks (../helm/hosted-checkout/files/probes.ts, which
 * the chart's `helm test` pods and `pnpm chart:run` use too): GET of the readiness path of an HTTP
 * service, the standard gRPC health check of a gRPC service, a TCP connection to the emulator. Exits 0
 * when it is ready, 1 otherwise (what the engine counts toward "unhealthy"), with one line saying what it
 * asked. Node built-ins only, no shell, no curl: the image runs it as `node <this file>`.
 *
 * Which service: $SERVICE (the image sets it). Where it listens: the variables the service reads and the
 * chart sets (<SERVICE>_PORT with <SERVICE>_HOST, or <SERVICE>_GRPC_ADDRESS), else the service's own
 * defaults (its src/config.ts), listed below. A wildcard or absent host is asked on 127.0.0.1.
 */
import process from 'node:process';
import { grpcReady, httpReady, tcpReady } from '../helm/hosted-checkout/files/probes.ts';

/** How a service is asked: HTTP services by their readiness path (the chart's readinessProbe.httpGet.path). */
type Check = { kind: 'http'; path: string; port: number } | { kind: 'tcp'; port: number } | { kind: 'grpc'; port: number };

/** The services that are not gRPC services, with their default ports; any other is asked over gRPC. */
const LISTENERS: Record<string, Check> = {
  gateway: { kind: 'http', path: '/readyz', port: 8080 },
  pages: { kind: 'http', path: '/readyz', port: 8082 },
  dashboard: { kind: 'http', path: '/dashboard/readyz', port: 8083 },
  emulator: { kind: 'tcp', port: 8090 },
};
/** The gRPC services' default ports (their <SERVICE>_GRPC_ADDRESS default, 127.0.0.1:<port>). */
const GRPC_DEFAULT_PORTS: Record<string, number> = {
  checkout: 50051,
  settlement: 50052,
  customers: 50053,
  webhooks: 50054,
  accounts: 50055,
  notifications: 50058,
};

function localHost(host: string | undefined): string {
  return !host || host === '0.0.0.0' || host === '::' || host === '[::]' ? '127.0.0.1' : host.replace(/^\[(.*)\]$/, '$1');
}

/** host and port of a "host:port" address (gRPC's dns:/// prefix allowed); undefined when it has none. */
function splitAddress(address: string | undefined): { host: string; port: number } | undefined {
  const match = address?.replace(/^dns:\/\/\//, '').match(/^(.*):(\d+)$/);
  return match ? { host: localHost(match[1]), port: Number(match[2]) } : undefined;
}

export interface Target {
  description: string;
  ready: () => Promise<boolean>;
}

/** What to ask for `service`, given the container's environment; undefined when nothing says where it listens. */
export function targetOf(service: string, env: NodeJS.ProcessEnv): Target | undefined {
  const prefix = service.toUpperCase().replace(/-/g, '_');
  const listener = LISTENERS[service];
  if (listener) {
    const host = localHost(env[`${prefix}_HOST`]);
    const port = Number(env[`${prefix}_PORT`] ?? listener.port);
    if (listener.kind === 'http') {
      const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}${listener.path}`;
      return { description: `GET ${url}`, ready: () => httpReady(url) };
    }
    return { description: `TCP ${host}:${port}`, ready: () => tcpReady(host, port) };
  }
  const fallback = GRPC_DEFAULT_PORTS[service];
  const address = splitAddress(env[`${prefix}_GRPC_ADDRESS`]) ?? (fallback ? { host: '127.0.0.1', port: fallback } : undefined);
  if (!address) return undefined;
  return {
    description: `grpc.health.v1.Health/Check ${address.host}:${address.port}`,
    ready: () => grpcReady(address.host, address.port),
  };
}

async function main(): Promise<number> {
  const service = process.env.SERVICE ?? '';
  const target = targetOf(service, process.env);
  if (!target) {
    console.log(`healthcheck: no listen address known for service '${service}' (set SERVICE and its address variables)`);
    return 1;
  }
  const ready = await target.ready();
  console.log(`healthcheck: ${target.description}: ${ready ? 'ready' : 'not ready'}`);
  return ready ? 0 : 1;
}

if (import.meta.main) process.exitCode = await main();
