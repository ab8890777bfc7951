/**
 * chart:run's NATS: a JetStream cluster of three servers, as a platform team runs it (issue 46, item 2;
 * docs/adr/0098). Each node is a container (`hc-chart-nats-0` …) with a network alias of its own name
 * (`nats-0` …: a StatefulSet pod's stable name) and the shared alias `nats` (the Service, which podman's
 * DNS answers with every node). Each has a `server_name`, JetStream with its store in its own container
 * (kept across a `podman stop`/`start`, like a pod's volume), and routes to the three names on 6222, the
 * routes secured with the same certificate as the clients' port (mutual TLS, the CA of nats-tls.ts).
 * `no_advertise`: the nodes do not gossip their container addresses to clients, which could not check
 * the certificate against an address; the clients fail over between the names values.yaml gives them.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { containerEnd, containerLogs, httpReady, publishedPort, run, tryRun } from './engine.ts';
import type { NatsLogin } from './nats-tls.ts';

/** Each node's name: its `server_name`, its network alias, and a host name in the certificate. */
export const NATS_NODES = ['nats-0', 'nats-1', 'nats-2'] as const;
export const NATS_CLIENT_PORT = 4222;
/** The monitoring port (`/healthz`, `/jsz`), published on 127.0.0.1 like the others. */
export const NATS_MONITOR_PORT = 8222;
const ROUTE_PORT = 6222;

/** The login each node's file asks for: its values come from the environment (see natsNodeConfig). */
export const NATS_AUTHORIZATION = 'authorization { user: $NATS_USER, password: $NATS_PASSWORD }';

/**
 * One node's configuration. The login comes from the container's environment ($NATS_USER,
 * $NATS_PASSWORD: nats-server reads a variable the file does not define from its environment, parsed as
 * a value of its language: see natsPassword), so no file holds the password.
 */
export function natsNodeConfig(node: string): string {
  const routes = NATS_NODES.map((peer) => `    "nats-route://${peer}:${ROUTE_PORT}"`).join('\n');
  const tls = 'cert_file: "/certs/server.crt", key_file: "/certs/server.key"';
  return [
    `server_name: "${node}"`,
    `listen: "0.0.0.0:${NATS_CLIENT_PORT}"`,
    `http: "0.0.0.0:${NATS_MONITOR_PORT}"`,
    // The image's user (nobody) may write /tmp; the store stays with the container.
    'jetstream { store_dir: "/tmp/jetstream" }',
    `tls { ${tls} }`,
    NATS_AUTHORIZATION,
    'cluster {',
    '  name: "hc"',
    `  listen: "0.0.0.0:${ROUTE_PORT}"`,
    '  no_advertise: true',
    // Every node lists all three (itself too: a server skips a route to itself).
    `  routes: [\n${routes}\n  ]`,
    // Routes are mutual TLS: each node checks the other's certificate against the CA and the name it dialled.
    `  tls { ${tls}, ca_file: "/certs/ca.crt" }`,
    '}',
    '',
  ].join('\n');
}

/** The configuration files, in a directory of the run's state mounted read-only into every node. */
export function writeNatsConfigs(state: string): string {
  const dir = join(state, 'nats-conf');
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  chmodSync(dir, 0o755);
  for (const node of NATS_NODES) writeFileSync(join(dir, `${node}.conf`), natsNodeConfig(node), { mode: 0o644 });
  return dir;
}

/**
 * `podman run` arguments of one node (after `run -d` and the label/network ones); `hostPorts` are where
 * its client and monitoring ports are published on 127.0.0.1 (free ports below the ephemeral range, ADR 0110).
 */
export function natsNodeRunArgs(
  node: string,
  container: string,
  login: NatsLogin,
  configs: string,
  image: string,
  hostPorts: { client: number; monitor: number },
): string[] {
  return [
    ...['--name', container, '--network-alias', node, '--network-alias', 'nats'],
    ...['-p', `127.0.0.1:${hostPorts.client}:${NATS_CLIENT_PORT}`, '-p', `127.0.0.1:${hostPorts.monitor}:${NATS_MONITOR_PORT}`],
    ...['-v', `${login.certs}:/certs:ro`, '-v', `${configs}:/etc/nats-cluster:ro`],
    ...['-e', `NATS_USER=${login.user}`, '-e', `NATS_PASSWORD=${login.password}`],
    ...[image, '-c', `/etc/nats-cluster/${node}.conf`],
  ];
}

/** How many times a node that exited while the cluster starts is started again (a StatefulSet's restartPolicy). */
export const NATS_START_RETRIES = 3;

/**
 * Whether a NATS node answers /healthz. A node that exited at start has how it ended and its last log
 * lines (stdout and stderr, where nats-server says why) printed, so the reason is on record (one was a
 * password nats-server read as a number: natsPassword), and is started again as Kubernetes would
 * restart the pod, up to `restarts.left` times.
 */
export async function natsNodeReady(client: string, container: string, restarts: { left: number }): Promise<boolean> {
  const status = tryRun(client, ['inspect', '-f', '{{.State.Status}}', container]);
  if (status === 'exited' || status === 'dead' || status === 'stopped') {
    const end = containerEnd(client, container);
    const logs = containerLogs(client, container, 20);
    process.stderr.write(`chart:run: ${container} exited while starting (${status}: ${end}); its last lines:\n${logs}\n`);
    if (restarts.left <= 0) throw new Error(`${container} exited while starting, ${NATS_START_RETRIES} restarts used`);
    restarts.left -= 1;
    run(client, ['start', container]);
    return false;
  }
  if (status !== 'running') return false;
  let port: number;
  try {
    port = publishedPort(client, container, NATS_MONITOR_PORT);
  } catch {
    return false; // running, its port not yet listed
  }
  return httpReady(port, '/healthz');
}
