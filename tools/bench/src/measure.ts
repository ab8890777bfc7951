/**
 * Measuring helpers of `pnpm bench` (tools/bench/src/bench.ts): one figure = req/s, p50, p99, errors, and the
 * machine's load average when it was taken (the machine is shared, so every figure says how busy it was).
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { wrkLoad, type LoadOptions, type LoadResult } from './wrk.ts';

export type { LoadOptions };

export const run = promisify(execFile);

export interface Figure {
  title: string;
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  load: number;
  /**
   * The whole machine's busy CPU per request while the figure ran, in ms (every process: PostgreSQL and
   * the load generator included). It moves far less with the machine's neighbours than the rate does.
   */
  machineMs?: number;
}

export function load1(): number {
  return loadavg()[0]!;
}

/** Which load generator drives a figure: wrk (the default, docs/adr/0068) or autocannon (figures before it). */
export type LoadClient = 'wrk' | 'autocannon';

export const LOAD_CLIENTS: readonly LoadClient[] = ['wrk', 'autocannon'];

export function loadClient(name: string | undefined): LoadClient {
  if (name === undefined || name === 'wrk') return 'wrk';
  if (name === 'autocannon') return name;
  throw new Error(`--client must be one of ${LOAD_CLIENTS.join(', ')}, not ${name}`);
}

/**
 * One figure: `connections` keep-alive connections sending the request for `duration` seconds.
 * Answers above 399, socket errors and timeouts count as errors (autocannon also counts 3xx).
 */
export async function load(title: string, options: LoadOptions, client: LoadClient = 'wrk'): Promise<Figure> {
  const started = load1();
  const busy = machineBusySeconds();
  const result = client === 'wrk' ? await wrkLoad(options) : await autocannonLoad(options);
  return {
    title,
    rate: result.requests / result.seconds,
    p50: result.p50Ms,
    p99: result.p99Ms,
    errors: result.errors,
    load: started,
    machineMs: msPerRequest(machineBusySeconds() - busy, result.requests),
  };
}

async function autocannonLoad(options: LoadOptions): Promise<LoadResult> {
  let counter = 0;
  const nonce = `${process.pid}-${Date.now()}`;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
    connections: options.connections,
    duration: options.duration,
    timeout: options.timeoutSeconds ?? 10,
    ...(options.freshIdempotencyKey
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                headers: { ...options.headers, 'idempotency-key': `bench-${nonce}-${(counter += 1)}` },
              }),
            },
          ],
        }
      : {}),
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function percentiles(samples: number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}

/**
 * pgbench with a custom script at `clients` connections for `seconds`, every transaction logged
 * (-l) so p50/p99 come from the same run as the rate. Prepared statements: the database's best case.
 * Retried, every 3 s for a minute, while the shared server has no free connections for it (other
 * users' tests hold them).
 */
export async function pgbench(
  title: string,
  databaseUrl: string,
  scriptFile: string,
  logDir: string,
  options: { clients: number; seconds: number },
): Promise<Figure> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await pgbenchOnce(title, databaseUrl, scriptFile, logDir, options);
    } catch (error) {
      if (attempt >= 20 || !String((error as { stderr?: unknown }).stderr).includes('too many clients')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  }
}

async function pgbenchOnce(
  title: string,
  databaseUrl: string,
  scriptFile: string,
  logDir: string,
  options: { clients: number; seconds: number },
): Promise<Figure> {
  const load = load1();
  const busy = machineBusySeconds();
  const prefix = join(logDir, `pgbench-${Date.now()}`);
  const { stdout } = await run(
    'pgbench',
    [
      '-n',
      '-M',
      'prepared',
      '-c',
      String(options.clients),
      '-j',
      '2',
      '-T',
      String(options.seconds),
      '-f',
      scriptFile,
      '-l',
      `--log-prefix=${prefix}`,
      databaseUrl,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const busySeconds = machineBusySeconds() - busy;
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? Number.NaN);
  const processed = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? Number.NaN);
  const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
  const latencies: number[] = [];
  for (const file of readdirSync(logDir).filter((name) => join(logDir, name).startsWith(prefix))) {
    for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      const microseconds = Number(line.split(' ')[2]);
      if (Number.isFinite(microseconds) && line.length > 0) latencies.push(microseconds / 1000);
    }
  }
  const { p50, p99 } = percentiles(latencies);
  return { title, rate: tps, p50, p99, errors: failed, load, machineMs: msPerRequest(busySeconds, processed) };
}

function msPerRequest(busySeconds: number, served: number): number | undefined {
  return served > 0 ? (1000 * busySeconds) / served : undefined;
}

export function formatRow(figure: Figure, baseline?: Figure): string {
  const ratio = baseline ? `${((100 * figure.rate) / baseline.rate).toFixed(1).padStart(5)}% of ${baseline.title}` : '';
  const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 1 ? 2 : value < 10 ? 1 : 0) : '-').padStart(6);
  return `${figure.title.padEnd(40)} ${figure.rate.toFixed(0).padStart(7)} /s  p50 ${ms(figure.p50)} ms  p99 ${ms(figure.p99)} ms  errors ${String(figure.errors).padStart(5)}  load ${figure.load.toFixed(1).padStart(5)}  ${machineColumn(figure, baseline)}${ratio}`;
}

/**
 * The machine's CPU per request and, beside a baseline, the share it would be if both were bound by
 * CPU alone (the baseline's CPU per request over the figure's). Printed for judging changes on a
 * shared machine; the goals are judged on rates (goals.ts).
 */
function machineColumn(figure: Figure, baseline?: Figure): string {
  if (figure.machineMs === undefined) return '';
  const byCpu = baseline?.machineMs === undefined ? '' : ` (${((100 * baseline.machineMs) / figure.machineMs).toFixed(1)}% by CPU)`;
  return `cpu ${figure.machineMs.toFixed(3)} ms${byCpu}  `;
}

/** CPU seconds (user + system) a process used so far, from /proc. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of the load generator so far: this process (autocannon runs in it) and its children once
 * they have exited (wrk and pgbench run as children; /proc/self/stat's cutime and cstime).
 */
function loadGeneratorSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
}

/** Resident memory of a process in MB (VmRSS in /proc/PID/status), NaN once it is gone. */
export function residentMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

/** System calls a process has made (reads + writes, /proc/PID/io): each costs a kernel entry. */
export function syscalls(pid: number): number {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    return Number(/syscr: (\d+)/.exec(io)?.[1] ?? 0) + Number(/syscw: (\d+)/.exec(io)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * CPU seconds this machine has spent busy, every core and process together (/proc/stat): PostgreSQL
 * and the load generator included. Time stolen by the hypervisor for other machines is not counted.
 */
export function machineBusySeconds(): number {
  const [, user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  return (user! + nice! + system! + irq! + softirq!) / 100;
}

/** CPU seconds every PostgreSQL server process on this machine has spent (its backends come and go). */
export function postgresSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.indexOf(')')) !== 'postgres') continue;
      const fields = stat.split(') ')[1]!.split(' ');
      // utime, stime, and what waited-for children spent (a backend that exited is counted in its parent).
      total += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // gone
    }
  }
  return total / 100;
}

/**
 * Where the CPU of `served` requests went, from now until the returned function is called: each of
 * `processes` (with its system calls), every PostgreSQL process, this load generator and the whole
 * machine, as milliseconds per request.
 */
export function cpuSplit(processes: readonly { readonly pid: number; readonly name: string }[]): (served: number) => string {
  const before = processes.map((p) => ({ ...p, cpu: cpuSeconds(p.pid), calls: syscalls(p.pid) }));
  const postgresBefore = postgresSeconds();
  const loadBefore = loadGeneratorSeconds();
  const machineBefore = machineBusySeconds();
  return (served) => {
    const ms = (seconds: number): string => `${((1000 * seconds) / served).toFixed(3)} ms`;
    return [
      ...before.map((p) => `${p.name} ${ms(cpuSeconds(p.pid) - p.cpu)} (${((syscalls(p.pid) - p.calls) / served).toFixed(1)} syscalls)`),
      `postgres ${ms(postgresSeconds() - postgresBefore)}`,
      `load generator ${ms(loadGeneratorSeconds() - loadBefore)}`,
      `machine ${ms(machineBusySeconds() - machineBefore)}`,
    ].join(', ');
  };
}

/** Every descendant process of `root` with a short name taken from its command line. */
export function descendants(root: number): { pid: number; name: string }[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.split(') ')[1]!.split(' ')[1]));
    } catch {
      // gone
    }
  }
  const found: { pid: number; name: string }[] = [];
  const walk = (pid: number): void => {
    for (const [child, parent] of parents) {
      if (parent !== pid) continue;
      let name = String(child);
      try {
        const argv = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0');
        const main = argv.map((arg) => /services\/([^/]+)\/src\/main\.ts$/.exec(arg)?.[1]).find((service) => service !== undefined);
        // The entry script is the last one named: node options may name a loader (register.ts) before it.
        name = main ?? (argv.findLast((arg) => /\.[cm]?[jt]s$/.test(arg)) ?? argv[0] ?? name).split('/').pop()!;
      } catch {
        // gone
      }
      found.push({ pid: child, name });
      walk(child);
    }
  };
  walk(root);
  return found;
}
