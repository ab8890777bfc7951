/** The container engine's command-line client (podman, or docker where podman is absent), and probes. */
import { execFileSync, spawnSync } from 'node:child_process';
import * as probes from '../hosted-checkout/files/probes.ts';

/**
 * CHART_RUN_INSTANCE (e.g. a branch name) runs a second chart:run beside the default one on one machine:
 * its own network, container names and label, so neither run's `--down` (or start) removes the other's
 * containers. Unset: the names below as they always were.
 */
const INSTANCE = process.env['CHART_RUN_INSTANCE'] ?? '';
if (!/^[a-z0-9-]*$/.test(INSTANCE)) throw new Error(`CHART_RUN_INSTANCE must be lower-case letters, digits and dashes`);
/** The label every container of this run carries (the one `--down` removes by). */
export const LABEL = INSTANCE ? `hosted-checkout.chart-run.${INSTANCE}` : 'hosted-checkout.chart-run';
/** The network of this run. */
export const NETWORK = INSTANCE ? `hc-chart-run-${INSTANCE}` : 'hc-chart-run';
/** This run's files (env files, volumes, Secrets, endpoints), under the repository. */
export const STATE_DIR = INSTANCE ? `.local/chart-run-${INSTANCE}` : '.local/chart-run';
/** Container names of this run: hc-chart-<what>. */
export const containerName = (what: string): string => (INSTANCE ? `hc-chart-${INSTANCE}-${what}` : `hc-chart-${what}`);

export function engineClient(): string {
  return spawnSync('podman', ['--version']).status === 0 ? 'podman' : 'docker';
}

export function run(client: string, args: string[], options: { input?: string } = {}): string {
  const result = spawnSync(client, args, { encoding: 'utf8', input: options.input, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${client} ${args.slice(0, 3).join(' ')} … failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

export function tryRun(client: string, args: string[]): string | undefined {
  const result = spawnSync(client, args, { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * A container's log (its last `tail` lines when given), what it wrote to stdout and to stderr: `podman
 * logs` replays the container's stderr on its own stderr, where most servers (nats-server, node's
 * uncaught errors) write why they stopped.
 */
export function containerLogs(client: string, container: string, tail?: number): string {
  const result = spawnSync(client, ['logs', ...(tail === undefined ? [] : ['--tail', String(tail)]), container], { encoding: 'utf8' });
  if (result.status !== 0) return `(no logs: ${result.stderr.trim()})`;
  return [result.stdout.trim(), result.stderr.trim()].filter((part) => part !== '').join('\n') || '(empty)';
}

/** How a container ended: its exit code, whether the kernel's OOM killer stopped it, the engine's error. */
export function containerEnd(client: string, container: string): string {
  return (
    tryRun(client, [
      'inspect',
      '-f',
      'exit code {{.State.ExitCode}}, OOM-killed {{.State.OOMKilled}}, error "{{.State.Error}}"',
      container,
    ]) ?? '(not inspectable)'
  );
}

/** The 127.0.0.1 port the engine published a container port on. */
export function publishedPort(client: string, container: string, port: number): number {
  const out =
    execFileSync(client, ['port', container, `${port}/tcp`], { encoding: 'utf8' })
      .trim()
      .split('\n')[0] ?? '';
  const match = out.match(/^(127\.0\.0\.1):(\d+)$/);
  if (!match) throw new Error(`${container}:${port} is not published on 127.0.0.1 only (${out})`);
  return Number(match[2]);
}

/** The readiness checks of probes.ts (shared with the chart's `helm test` pods), on a published port of 127.0.0.1. */
export const httpReady = (port: number, path: string): Promise<boolean> => probes.httpReady(`http://127.0.0.1:${port}${path}`);
export const tcpReady = (port: number): Promise<boolean> => probes.tcpReady('127.0.0.1', port);
export const grpcReady = (port: number): Promise<boolean> => probes.grpcReady('127.0.0.1', port);

/**
 * What namesResolve runs in the pod with `node -e`: exits 0 once every name of its arguments and every
 * host of the pod's *_GRPC_ADDRESS resolves (`host:port` or `dns:///host:port`, docs/adr/0092), is
 * killed after a second otherwise. Exported for its test, which runs it on this machine.
 */
export const NAMES_RESOLVE_SCRIPT = [
  "const { lookup } = require('node:dns').promises;",
  '// Not process.exit(1): it would wait for the lookups still hanging.',
  "const fail = () => process.kill(process.pid, 'SIGKILL');",
  'setTimeout(fail, 1000);',
  'const services = Object.entries(process.env)',
  "  .filter(([k, v]) => k.endsWith('_GRPC_ADDRESS') && !v.startsWith('0.0.0.0:'))",
  "  .map(([, v]) => v.replace(/^dns:\\/\\/\\//, '').replace(/:\\d+$/, ''));",
  'Promise.all([...process.argv.slice(1), ...services].map((n) => lookup(n))).then(() => process.exit(0), fail);',
].join('\n');

/**
 * Whether name resolution inside `container` answers, within a second, for `names` and for the Service
 * names the pod calls (the hosts of its *_GRPC_ADDRESS, e.g. the dashboard's for the operator CLI's
 * audit line, docs/adr/0060). Why it may not: podman's DNS server on the network (aardvark-dns; 1.4 in
 * Debian 12) takes in a container that joins or leaves by restarting its listeners, and meanwhile the
 * other containers' lookups fail (NXDOMAIN from the fallback resolver in their resolv.conf) or hang, up
 * to 25 s seen here (containers/aardvark-dns#389, fixed in 1.11). A CLI run then is refused: its 5 s
 * gRPC deadline passes while it resolves the dashboard. Pass the name of the container that just
 * joined: once it resolves, the restart that added it is over.
 */
export function namesResolve(client: string, container: string, names: string[]): boolean {
  return tryRun(client, ['exec', container, 'node', '-e', NAMES_RESOLVE_SCRIPT, ...names]) !== undefined;
}
