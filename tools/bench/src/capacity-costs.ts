/**
 * What one payment costs the platform, read from the machine and from PostgreSQL around a run
 * (`pnpm bench:capacity`, capacity.ts): CPU per process, PostgreSQL's CPU, and per database the
 * transactions, rows written and outbox events. PostgreSQL's CPU is that of the backends connected to
 * the platform's own databases (their process titles name the database; backends that exit in between
 * are missed, so pools that keep their connections measure best): the server is shared with
 * other users of this machine. docs/capacity.md turns these into sizes with sizing.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpuSeconds } from './measure.ts';
import { serviceDatabases, type OwnPlatform } from './own-platform.ts';
import { rows } from './pipeline.ts';

export interface DatabaseCounters {
  name: string;
  commits: number;
  rowsWritten: number;
  outboxEvents: number;
}

export interface CostSnapshot {
  /** When it was taken (ms, performance.now()). */
  at: number;
  processes: Map<string, number>;
  /** CPU seconds of every live backend of the platform's databases, by backend pid. */
  backends: Map<number, number>;
  databases: DatabaseCounters[];
}

/** CPU seconds of the PostgreSQL backends serving `databases` (a title `postgres: user db …`), by pid. */
function backendSeconds(databases: readonly string[]): Map<number, number> {
  const found = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      // `postgres: 15/main: user database 127.0.0.1(port) idle` (the cluster name only on Debian's clusters).
      const database = /^postgres: (?:\S+: )?\S+ (\S+) /.exec(title)?.[1];
      if (database !== undefined && databases.includes(database)) found.set(Number(entry), cpuSeconds(Number(entry)));
    } catch {
      // gone
    }
  }
  return found;
}

async function one(url: string, sql: string): Promise<number> {
  return Number((await rows(url, sql))[0]?.[0] ?? 0);
}

async function databaseCounters(service: string, url: string): Promise<DatabaseCounters> {
  // The statistics collector reports a backend's counts at its next idle moment: ask it to flush ours.
  const [commits, rowsWritten] = (
    await rows(url, 'SELECT xact_commit, tup_inserted + tup_updated + tup_deleted FROM pg_stat_database WHERE datname = current_database()')
  )[0]!.map(Number);
  const hasOutbox = (await one(url, "SELECT count(*) FROM pg_tables WHERE tablename = 'outbox_messages'")) > 0;
  const outboxEvents = hasOutbox ? await one(url, 'SELECT coalesce(max(seq), 0) FROM outbox_messages') : 0;
  return { name: service, commits: commits!, rowsWritten: rowsWritten!, outboxEvents };
}

export async function snapshot(platform: OwnPlatform, processes: { pid: number; name: string }[]): Promise<CostSnapshot> {
  const services = serviceDatabases(platform);
  const databases = await Promise.all(services.map(([service, url]) => databaseCounters(service, url)));
  const names = services.map(([, url]) => new URL(url).pathname.slice(1));
  const perProcess = new Map<string, number>();
  for (const p of processes) perProcess.set(p.name, (perProcess.get(p.name) ?? 0) + cpuSeconds(p.pid));
  return { at: performance.now(), processes: perProcess, backends: backendSeconds(names), databases };
}

export interface PaymentCost {
  /** CPU milliseconds per payment above the process's idle rate, by process name. */
  cpuMs: Map<string, number>;
  /** CPU a process spends idle (timers, polls, heartbeats), in cores. */
  idleCores: Map<string, number>;
  postgresCpuMs: number;
  postgresIdleCores: number;
  /** Per database: transactions (reads included), rows written, outbox events, per payment. */
  databases: DatabaseCounters[];
}

const backendTotal = (before: CostSnapshot, after: CostSnapshot): number =>
  [...after.backends].reduce((sum, [pid, seconds]) => sum + seconds - (before.backends.get(pid) ?? 0), 0);

/**
 * Per payment, from an idle window (idleFrom → idleTo, no load) and a loaded one (before → after, the
 * payments and their drain): a process's CPU in the loaded window minus what it spends idle in as long.
 */
export function perPayment(
  idle: { from: CostSnapshot; to: CostSnapshot },
  before: CostSnapshot,
  after: CostSnapshot,
  payments: number,
): PaymentCost {
  const idleSeconds = (idle.to.at - idle.from.at) / 1000;
  const loadedSeconds = (after.at - before.at) / 1000;
  const cpuMs = new Map<string, number>();
  const idleCores = new Map<string, number>();
  for (const [name, seconds] of after.processes) {
    const idleRate = (idle.to.processes.get(name)! - idle.from.processes.get(name)!) / idleSeconds;
    idleCores.set(name, idleRate);
    cpuMs.set(name, Math.max(0, (1000 * (seconds - before.processes.get(name)! - idleRate * loadedSeconds)) / payments));
  }
  const postgresIdleCores = backendTotal(idle.from, idle.to) / idleSeconds;
  return {
    cpuMs,
    idleCores,
    postgresCpuMs: Math.max(0, (1000 * (backendTotal(before, after) - postgresIdleCores * loadedSeconds)) / payments),
    postgresIdleCores,
    databases: after.databases.map((db) => {
      const was = before.databases.find((d) => d.name === db.name)!;
      // Transactions include the idle window's polls; subtract them as for CPU.
      const idleFrom = idle.from.databases.find((d) => d.name === db.name)!;
      const idleTo = idle.to.databases.find((d) => d.name === db.name)!;
      const idleCommits = ((idleTo.commits - idleFrom.commits) / idleSeconds) * loadedSeconds;
      return {
        name: db.name,
        commits: Math.max(0, db.commits - was.commits - idleCommits) / payments,
        rowsWritten: (db.rowsWritten - was.rowsWritten) / payments,
        outboxEvents: (db.outboxEvents - was.outboxEvents) / payments,
      };
    }),
  };
}
