/**
 * PostgreSQL and NATS servers of a test's own, for fault tests that stop, kill and restart them: the
 * machine's shared servers (127.0.0.1:5432, :4222) are used by every other test and must never go
 * away. Each server here runs from the machine's own binaries (Debian's postgresql and nats-server;
 * docs/reliability.md) on a free port with its data in a temporary folder, which a restart keeps.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Ports handed out below Linux's ephemeral range (32768–60999 by default, read from /proc): a port the
 * OS picked with listen(0) is an ephemeral one, and any outbound connection (a PostgreSQL pool, NATS)
 * could take it before the test's server binds it. That happened in CI (a platform's gateway,
 * EADDRINUSE five times). Containers are published on these ports too (docs/adr/0110). Each process
 * walks the range from its own starting point (from its pid), so two jest workers rarely probe the
 * same ports, and never hands out a port twice.
 */
export const EPHEMERAL_PORTS_FROM = ephemeralPortsFrom();
const PORTS_TO = Math.min(32_767, EPHEMERAL_PORTS_FROM - 1);
const PORTS_FROM = Math.min(20_000, PORTS_TO - 2_000);
const handedOut = new Set<number>();
let nextCandidate = PORTS_FROM + ((process.pid * 613) % (PORTS_TO - PORTS_FROM));

/** The first port of this machine's ephemeral range (what listen(0) and outbound connections are given). */
function ephemeralPortsFrom(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 4_096 ? low : 32_768;
  } catch {
    return 32_768; // not Linux: its default
  }
}

function listensFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port on 127.0.0.1 that was free a moment ago, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < PORTS_TO - PORTS_FROM; tries += 1) {
    const port = nextCandidate;
    nextCandidate = nextCandidate >= PORTS_TO ? PORTS_FROM : nextCandidate + 1;
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await listensFree(port)) return port;
  }
  throw new Error(`no free port between ${PORTS_FROM} and ${PORTS_TO}`);
}

/**
 * Waits until something listens on `port`. `gone` says why the server can no longer come (it exited),
 * so a failed start is reported at once rather than after the whole wait.
 */
export async function waitForPort(port: number, timeoutMs: number, gone: () => string | undefined = () => undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const why = gone();
    if (why) throw new Error(`nothing listens on ${port}: ${why}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createServer();
      socket.once('error', () => resolve(true));
      socket.listen(port, '127.0.0.1', () => socket.close(() => resolve(false)));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function postgresBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const path = join(root, version, 'bin', name);
    if (existsSync(path)) return path;
  }
  throw new Error(`${name} not found under ${root} (Debian's postgresql package)`);
}

/** Runs a PostgreSQL binary as the `postgres` user when we are root (PostgreSQL refuses to run as root). */
function runAsPostgres(args: string[]): { status: number | null; output: string } {
  const asRoot = process.getuid?.() === 0;
  const [command, rest] = asRoot ? ['runuser', ['-u', 'postgres', '--', ...args]] : [args[0]!, args.slice(1)];
  const result = spawnSync(command, rest as string[], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

export interface DisposablePostgres {
  /** Server URL (database `postgres`), for withDatabase(). */
  readonly url: string;
  readonly port: number;
  /** Stops it like a crash (`pg_ctl stop -m immediate`: no checkpoint, connections cut) and starts it again. */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startDisposablePostgres(): Promise<DisposablePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'hc-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const init = runAsPostgres([postgresBin('initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  if (init.status !== 0) throw new Error(`initdb failed:\n${init.output}`);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`;
  const pgCtl = (...args: string[]) => runAsPostgres([postgresBin('pg_ctl'), '-D', data, ...args]);
  const start = async () => {
    const started = pgCtl('-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start');
    if (started.status !== 0) throw new Error(`pg_ctl start failed:\n${started.output}`);
    await waitForPort(port, 10_000);
  };
  await start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    async restart(downMs = 0) {
      pgCtl('-m', 'immediate', 'stop');
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    async stop() {
      pgCtl('-m', 'immediate', 'stop');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface DisposableNats {
  readonly url: string;
  /** SIGKILL: JetStream's store stays in its folder for the next start. */
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * One nats-server process on `port` with its JetStream store in `dir` (kept across a restart), started
 * and SIGKILLed on demand. The single server and every cluster node are made by this.
 */
function natsServerProcess(port: number, dir: string, extraArgs: readonly string[] = []): Omit<DisposableNats, 'stop'> {
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn('/usr/sbin/nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir, ...extraArgs], {
      stdio: 'ignore',
    });
    child = started;
    // After a SIGKILL, JetStream recovers its store before it listens: on a loaded machine that can
    // take well over 10 s (the fault suite restarts it under load).
    await waitForPort(port, 60_000, () =>
      started.exitCode !== null || started.signalCode !== null
        ? `nats-server exited (${started.exitCode ?? started.signalCode})`
        : undefined,
    );
  };
  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  return { url: `nats://127.0.0.1:${port}`, start, kill };
}

export async function startDisposableNats(): Promise<DisposableNats> {
  const dir = mkdtempSync(join(tmpdir(), 'hc-nats-'));
  const server = natsServerProcess(await freePort(), dir);
  await server.start();
  return {
    ...server,
    async stop() {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface DisposableNatsCluster {
  /** Every node's client URL, comma-separated (connectNats takes the list). */
  readonly url: string;
  readonly nodes: readonly DisposableNats[];
  stop(): Promise<void>;
}

/**
 * Three nats-server processes (Debian's; clustering is built in) routed to each other on 127.0.0.1 as
 * one JetStream cluster, each with its store in a folder of its own that a restart keeps. A node can be
 * killed and started again (`nodes[i]`) while the other two keep the streams' quorum.
 */
export async function startDisposableNatsCluster(size = 3): Promise<DisposableNatsCluster> {
  const clientPorts: number[] = [];
  const routePorts: number[] = [];
  for (let i = 0; i < size; i += 1) {
    clientPorts.push(await freePort());
    routePorts.push(await freePort());
  }
  const routes = routePorts.map((port) => `nats://127.0.0.1:${port}`).join(',');
  const dirs: string[] = [];
  const nodes: DisposableNats[] = clientPorts.map((port, i) => {
    const dir = mkdtempSync(join(tmpdir(), `hc-nats-${i}-`));
    dirs.push(dir);
    const node = natsServerProcess(port, dir, [
      '-n',
      `hc-${i}`,
      '--cluster_name',
      'hc',
      '--cluster',
      `nats://127.0.0.1:${routePorts[i]}`,
      '--routes',
      routes,
    ]);
    return { ...node, stop: node.kill };
  });
  try {
    await Promise.all(nodes.map((node) => node.start()));
  } catch (error) {
    await Promise.all(nodes.map((node) => node.kill()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: nodes.map((node) => node.url).join(','),
    nodes,
    async stop() {
      await Promise.all(nodes.map((node) => node.kill()));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
