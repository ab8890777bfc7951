/**
 * What an idle platform costs: each process's CPU, PostgreSQL's CPU and the transactions the platform's
 * databases commit a second while nobody calls it, for one or more checkouts of the repository started
 * in turn (an A/B of old and new code on the same machine, alternated round by round). Not a test.
 *
 *   node tools/bench/src/idle-cost.ts [--root DIR]… [--rounds 2] [--settle 15] [--seconds 30]
 *
 * Idle work is what every replica of every service pays all day, and what a test suite pays for each
 * platform it keeps running. PostgreSQL's CPU is every postgres process on the machine (run it on a
 * quiet one); the transactions are counted in the platform's own databases only.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { cpuSeconds, machineBusySeconds, postgresSeconds } from './measure.ts';
import { eachPlatformInTurn, platformProcesses, serviceDatabases, type OwnPlatform } from './own-platform.ts';

const { values } = parseArgs({
  options: {
    root: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '2' },
    settle: { type: 'string', default: '15' },
    seconds: { type: 'string', default: '30' },
  },
});
const roots = (values.root ?? [join(import.meta.dirname, '..', '..', '..')]).map((root) => resolve(root));
const say = (line: string) => process.stdout.write(`${line}\n`);
const seconds = Number(values.seconds);

/** Transactions committed and rolled back so far in the platform's databases (pg_stat_database). */
async function transactions(platform: OwnPlatform): Promise<number> {
  const databases = serviceDatabases(platform).map(([, url]) => new URL(url).pathname.slice(1));
  const client = new pg.Client({ connectionString: serviceDatabases(platform)[0]![1] });
  await client.connect();
  try {
    // Statistics are read once per transaction and flushed by backends every second or so: clear the snapshot.
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ total: string }>(
      'SELECT coalesce(sum(xact_commit + xact_rollback), 0)::text AS total FROM pg_stat_database WHERE datname = ANY($1)',
      [databases],
    );
    return Number(rows[0]!.total);
  } finally {
    await client.end();
  }
}

async function measureIdle(platform: OwnPlatform): Promise<string[]> {
  const processes = platformProcesses(platform);
  const cpuBefore = processes.map((p) => cpuSeconds(p.pid));
  const [postgresBefore, machineBefore, xactBefore] = [postgresSeconds(), machineBusySeconds(), await transactions(platform)];
  await new Promise((done) => setTimeout(done, seconds * 1000));
  // The two reads of pg_stat_database are transactions of this benchmark's own: not counted.
  const xact = (await transactions(platform)) - xactBefore - 1;
  const perSecond = (value: number) => ((1000 * value) / seconds).toFixed(1).padStart(7);
  const lines = processes.map((p, i) => `  ${p.name.padEnd(28)} ${perSecond(cpuSeconds(p.pid) - cpuBefore[i]!)} ms CPU/s`);
  const platformCpu = processes.reduce((sum, p, i) => sum + cpuSeconds(p.pid) - cpuBefore[i]!, 0);
  return [
    ...lines,
    `  ${'all platform processes'.padEnd(28)} ${perSecond(platformCpu)} ms CPU/s`,
    `  ${'postgres (every process)'.padEnd(28)} ${perSecond(postgresSeconds() - postgresBefore)} ms CPU/s`,
    `  ${'machine'.padEnd(28)} ${perSecond(machineBusySeconds() - machineBefore)} ms CPU/s`,
    `  ${'platform databases'.padEnd(28)} ${(xact / seconds).toFixed(1).padStart(7)} transactions/s`,
  ];
}

await eachPlatformInTurn({ label: 'idle', roots, rounds: Number(values.rounds), say }, async (platform) => {
  await new Promise((done) => setTimeout(done, Number(values.settle) * 1000));
  say(`idle for ${seconds} s, ${values.settle} s after it was ready:`);
  for (const line of await measureIdle(platform)) say(line);
});
