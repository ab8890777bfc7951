/**
 * A PostgreSQL that fails over, of a test's own (docs/adr/0091): one etcd, two Patroni nodes (a primary
 * and a synchronous streaming standby, each with its data in a temporary folder) and HAProxy in front,
 * routing to whichever node Patroni's REST API calls the primary. All are Debian's packages
 * (scripts/ensure-failover-tools.sh) run as processes on 127.0.0.1 ports; PostgreSQL refuses to run as
 * root, so as root Patroni and its PostgreSQL run as the `postgres` user. Every process is stopped by
 * its pid or process group, never by name.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, postgresBin, waitForPort } from './disposable-servers.ts';
import { binDir, haproxyConfig, patroniConfig, type NodePorts } from './postgres-cluster-config.ts';

export interface PostgresClusterNode {
  readonly name: string;
  /** This node's PostgreSQL directly (database `postgres`), bypassing HAProxy. */
  readonly url: string;
  /** Patroni's view of this node: `primary`, `replica`, or `down` when its REST API does not answer. */
  role(): Promise<'primary' | 'replica' | 'down'>;
  /** Like a lost machine: SIGKILL of its Patroni and of its PostgreSQL (the postmaster's process group). */
  kill(): Promise<void>;
  /** Its Patroni again, on its data folder: a former primary rejoins as a standby (pg_rewind). */
  start(): void;
}

export interface DisposablePostgresCluster {
  /** HAProxy's address (database `postgres`): always the current primary. What the services are given. */
  readonly url: string;
  readonly nodes: readonly PostgresClusterNode[];
  /** The node Patroni calls the primary now, if any. */
  primary(): Promise<PostgresClusterNode | undefined>;
  /** Waits until a node other than `not` is the primary and HAProxy routes to it; that node. */
  waitForPrimary(options: { not?: PostgresClusterNode; timeoutMs: number }): Promise<PostgresClusterNode>;
  /** Waits until `node` streams from the primary as its synchronous standby. */
  waitForSyncStandby(node: PostgresClusterNode, timeoutMs: number): Promise<void>;
  /** The folder of every process's log (kept if `keepLogs`). */
  readonly dir: string;
  stop(keepLogs?: boolean): Promise<void>;
}

/** As root, the user PostgreSQL runs as (it refuses root): Debian's `postgres`. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

function alive(child: ChildProcess | undefined): child is ChildProcess {
  return child !== undefined && child.exitCode === null && child.signalCode === null;
}

/** SIGKILL of a process group (negative pid), ignoring one already gone. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

async function killChild(child: ChildProcess | undefined): Promise<void> {
  if (!alive(child) || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  killGroup(child.pid);
  await exited;
}

function launch(command: string, args: string[], log: string, user?: { uid: number; gid: number }, home?: string): ChildProcess {
  const out = openSync(log, 'a');
  try {
    return spawn(command, args, {
      detached: true,
      stdio: ['ignore', out, out],
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      env: { ...process.env, ...(home ? { HOME: home } : {}) },
    });
  } finally {
    // The child has its own copy of the descriptor.
    closeSync(out);
  }
}

/**
 * The process group of the PostgreSQL running on `data` (its postmaster.pid), if one runs: checked
 * against the process's command line, since a pid in a file left by a killed server may be reused.
 */
function postmasterGroup(data: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(data)) return undefined;
    // /proc/PID/stat: "pid (comm) state ppid pgrp …"; comm may hold spaces, so read after its ')'.
    const group = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[2]);
    return group > 1 ? group : undefined;
  } catch {
    return undefined;
  }
}

async function status(url: string): Promise<number> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return 0;
  }
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function clusterNode(ports: NodePorts, root: string, etcdPort: number, user: { uid: number; gid: number } | undefined) {
  const dir = join(root, ports.name);
  mkdirSync(dir, { mode: 0o700 });
  const config = join(dir, 'patroni.yml');
  const settings = patroniConfig({ scope: 'hc', etcdPort, node: ports, dir, bin: binDir(postgresBin('initdb')) });
  writeFileSync(config, JSON.stringify(settings, null, 2));
  if (user) for (const path of [dir, config]) chownSync(path, user.uid, user.gid);
  let patroni: ChildProcess | undefined;
  const node: PostgresClusterNode & { stop(): Promise<void> } = {
    name: ports.name,
    url: `postgresql://postgres@127.0.0.1:${ports.postgres}/postgres`,
    async role() {
      if ((await status(`http://127.0.0.1:${ports.rest}/primary`)) === 200) return 'primary';
      return (await status(`http://127.0.0.1:${ports.rest}/replica`)) === 200 ? 'replica' : 'down';
    },
    start() {
      if (alive(patroni)) return;
      patroni = launch('patroni', [config], join(dir, 'patroni.log'), user, dir);
    },
    async kill() {
      const group = postmasterGroup(join(dir, 'data'));
      await killChild(patroni);
      // Patroni starts the postmaster in a session of its own (setsid), which its backends share.
      if (group !== undefined) killGroup(group);
      await until(async () => (await node.role()) === 'down', 10_000, `${ports.name} down`);
    },
    async stop() {
      await node.kill();
    },
  };
  return node;
}

function requireTools(): void {
  const missing = ['patroni', 'etcd', '/usr/sbin/haproxy'].filter(
    (tool) => spawnSync(tool, [tool.endsWith('haproxy') ? '-v' : '--version']).status !== 0,
  );
  if (missing.length > 0) throw new Error(`${missing.join(', ')} missing: run scripts/ensure-failover-tools.sh (Debian's packages)`);
}

/** A one-member etcd: Patroni's leader key and the name of the synchronous standby live there. */
function startEtcd(root: string, client: number, peer: number): ChildProcess {
  const url = (port: number) => `http://127.0.0.1:${port}`;
  return launch(
    'etcd',
    [
      ...['--name', 'etcd-0', '--data-dir', join(root, 'etcd')],
      ...['--listen-client-urls', url(client), '--advertise-client-urls', url(client)],
      ...['--listen-peer-urls', url(peer), '--initial-advertise-peer-urls', url(peer)],
      ...['--initial-cluster', `etcd-0=${url(peer)}`],
    ],
    join(root, 'etcd.log'),
  );
}

/** The cluster's handle over its started parts; `stop` kills what runs of them. */
function clusterHandle(
  parts: { root: string; haproxyPort: number; ports: readonly NodePorts[] },
  nodes: readonly (PostgresClusterNode & { stop(): Promise<void> })[],
  processes: () => (ChildProcess | undefined)[],
): DisposablePostgresCluster {
  const cluster: DisposablePostgresCluster = {
    url: `postgresql://postgres@127.0.0.1:${parts.haproxyPort}/postgres`,
    nodes,
    dir: parts.root,
    async primary() {
      for (const node of nodes) if ((await node.role()) === 'primary') return node;
      return undefined;
    },
    async waitForPrimary({ not, timeoutMs }) {
      let found: PostgresClusterNode | undefined;
      await until(
        async () => {
          found = await cluster.primary();
          return found !== undefined && found !== not;
        },
        timeoutMs,
        'a new primary',
      );
      // HAProxy marks the new primary up after one passing check (every 500 ms).
      await until(() => answers(cluster.url), timeoutMs, 'HAProxy routing to the primary');
      return found!;
    },
    async waitForSyncStandby(node, timeoutMs) {
      const rest = parts.ports.find((p) => p.name === node.name)!.rest;
      await until(async () => (await status(`http://127.0.0.1:${rest}/sync`)) === 200, timeoutMs, `${node.name} as synchronous standby`);
    },
    async stop(keepLogs = false) {
      await Promise.all(nodes.map((node) => node.stop()));
      for (const child of processes()) await killChild(child);
      if (!keepLogs) rmSync(parts.root, { recursive: true, force: true });
    },
  };
  return cluster;
}

export async function startDisposablePostgresCluster(): Promise<DisposablePostgresCluster> {
  requireTools();
  const user = postgresUser();
  const root = mkdtempSync(join(tmpdir(), 'hc-pg-cluster-'));
  if (user) chownSync(root, user.uid, user.gid);
  const [etcdClient, etcdPeer, haproxyPort] = [await freePort(), await freePort(), await freePort()];
  const ports: NodePorts[] = [];
  for (const name of ['pg-0', 'pg-1']) ports.push({ name, postgres: await freePort(), rest: await freePort() });
  const etcd = startEtcd(root, etcdClient, etcdPeer);
  const haproxyFile = join(root, 'haproxy.cfg');
  writeFileSync(haproxyFile, haproxyConfig(haproxyPort, ports));
  let haproxy: ChildProcess | undefined;
  const nodes = ports.map((p) => clusterNode(p, root, etcdClient, user));
  const cluster = clusterHandle({ root, haproxyPort, ports }, nodes, () => [haproxy, etcd]);
  try {
    await waitForPort(etcdClient, 30_000, () => (alive(etcd) ? undefined : `etcd exited; ${join(root, 'etcd.log')}`));
    haproxy = launch('/usr/sbin/haproxy', ['-db', '-f', haproxyFile], join(root, 'haproxy.log'));
    // One node first, so it is the one that runs initdb; the other then clones it.
    nodes[0]!.start();
    await cluster.waitForPrimary({ timeoutMs: 60_000 });
    nodes[1]!.start();
    await cluster.waitForSyncStandby(nodes[1]!, 90_000);
    return cluster;
  } catch (error) {
    const logs = ['etcd.log', 'pg-0/patroni.log', 'pg-1/patroni.log']
      .map((log) => join(root, log))
      .filter((log) => existsSync(log))
      .map((log) => `--- ${log}\n${readFileSync(log, 'utf8').slice(-2000)}`);
    await cluster.stop();
    throw new Error(`${(error as Error).message}\n${logs.join('\n')}`, { cause: error });
  }
}

/** True when a connection through `url` reaches a PostgreSQL that takes writes. */
async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const read = await client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
    return read.rows[0]?.standby === false;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
