/**
 * Issue 33's read goal, alone: `GET /v1/payments/:id` and `GET /v1/checkout_sessions/:id` beside
 * pgbench's primary-key select of a session, measured in one run, with the gateway's CPU milliseconds
 * and system calls per read. Faster to run than `pnpm bench` when only the read path changes. Not a
 * test. With --profile DIR every process runs under --cpu-prof and the gateway's profile is summarized.
 *
 *   node tools/bench/src/read-ratio.ts [--seconds 8] [--rounds 2] [--profile DIR] [--express] [--client wrk|autocannon|both]
 *
 * --express adds the same two reads with a query string: before ADR 0103 that sent them through Express
 * instead of the hot path; now both forms take the same pipeline, so the pair shows what a query costs. --client both measures every read with wrk and with
 * autocannon in the same round (docs/adr/0068: what the load generator itself costs).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { dropDatabase, ensureDatabase, migrateDatabase, withDatabase } from '@hc/db';
import { CHECKOUT_MIGRATIONS_DIR } from '@hc/checkout';
import { testDatabaseServerUrl } from '@hc/test-kit';
import { cpuSplit, descendants, formatRow, load, load1, loadClient, LOAD_CLIENTS, pgbench, run } from './measure.ts';
import { summarizeProfile } from './profile.ts';
import { launchPlatform, platformSetting, stopPlatform } from '../../platform/src/platform-process.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '2' },
    profile: { type: 'string' },
    express: { type: 'boolean', default: false },
    client: { type: 'string', default: 'wrk' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const clients = values.client === 'both' ? LOAD_CLIENTS : [loadClient(values.client)];
const root = join(import.meta.dirname, '..', '..', '..');
const work = mkdtempSync(join(tmpdir(), 'hc-read-ratio-'));
const say = (line: string) => process.stdout.write(`${line}\n`);

const setting = await platformSetting('read-ratio');
const env: NodeJS.ProcessEnv = {
  ...process.env,
  ...setting.env,
  PLATFORM_HOME: work,
  RATE_LIMIT_REQUESTS_PER_MINUTE: '1000000',
  RATE_LIMIT_STARTS_PER_MINUTE: '1000000',
};
if (values.profile) {
  mkdirSync(values.profile, { recursive: true });
  env['NODE_OPTIONS'] = `${process.env['NODE_OPTIONS'] ?? ''} --cpu-prof --cpu-prof-dir=${values.profile}`.trim();
}
const platform = await launchPlatform(process.execPath, [join(root, 'tools/platform/src/platform.ts')], {
  cwd: root,
  env,
  timeoutMs: 180_000,
}).ready;
const apiUrl = `http://127.0.0.1:${setting.env['PLATFORM_GATEWAY_BACKEND_PORT']}`;
const headers = { authorization: `Bearer ${platform.printed['TEST_SECRET_KEY']}`, 'content-type': 'application/json' };
const body = JSON.stringify({
  amount: '25.00',
  currency: 'EUR',
  description: 'Benchmark order',
  customer_email: 'bench@example.com',
  metadata: { run: 'bench' },
});
const created = (await (await fetch(`${apiUrl}/v1/checkout_sessions`, { method: 'POST', headers, body })).json()) as { id: string };
const gateway = descendants(platform.process.pid!).find((p) => /gateway/.test(p.name));
const checkout = descendants(platform.process.pid!).find((p) => /checkout/.test(p.name));

/** The read path's processes, whose CPU per read is printed beside the figures. */
const readPath = [gateway, checkout].filter((p) => p !== undefined);

// The database baseline: checkout's own table in a database of this run's own, as `pnpm bench` does.
const pgUrl = withDatabase(testDatabaseServerUrl(), `read_ratio_${process.pid}`);
await ensureDatabase(pgUrl);
await migrateDatabase(pgUrl, CHECKOUT_MIGRATIONS_DIR);
await run('psql', [
  pgUrl,
  '-qc',
  `INSERT INTO checkout_sessions (id, account_id, livemode, status, amount, currency, description, customer_email, metadata, created_at, expires_at)
   SELECT 'pay_seed_' || i, 'acct_bench', false, 'open', 25.00, 'EUR', 'Benchmark order', 'bench@example.com', '{"run":"bench"}', now(), now() + interval '1 day'
   FROM generate_series(1, 10000) AS i`,
]);
const selectScript = join(work, 'select.sql');
writeFileSync(selectScript, `\\set i random(1, 10000)\nSELECT * FROM checkout_sessions WHERE id = 'pay_seed_' || :i;\n`);

const selectBaseline = () => pgbench('pgbench pk select', pgUrl, selectScript, work, { clients: connections, seconds });

// The same reads with a query (the same pipeline since docs/adr/0103; before it, Express instead of the hot path).
const reads = [
  `/v1/payments/${created.id}`,
  `/v1/checkout_sessions/${created.id}`,
  ...(values.express ? [`/v1/payments/${created.id}?via=express`, `/v1/checkout_sessions/${created.id}?via=express`] : []),
];
try {
  for (const path of reads) await load('warm-up', { url: `${apiUrl}${path}`, headers, connections, duration: 3 }, clients[0]);
  for (let round = 1; round <= Number(values.rounds); round += 1) {
    say(`round ${round} (load ${load1().toFixed(1)})`);
    const selectSplit = cpuSplit(readPath);
    const select = await selectBaseline();
    say(formatRow(select));
    // pgbench, like wrk, is a child process: its CPU shows as the load generator's once it has exited.
    say(`    CPU per select: ${selectSplit(select.rate * seconds)}`);
    for (const path of reads) {
      for (const client of clients) {
        const split = cpuSplit(readPath);
        const title = `GET ${path.replace(created.id, ':id')}${clients.length > 1 ? ` (${client})` : ''}`;
        const figure = await load(title, { url: `${apiUrl}${path}`, headers, connections, duration: seconds }, client);
        say(formatRow(figure, select));
        say(`    CPU per read: ${split(figure.rate * seconds)}`);
      }
    }
  }
} finally {
  await stopPlatform(platform);
  await setting.dropDatabases();
  await dropDatabase(pgUrl).catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}

if (values.profile) {
  const mine = (name: string) => name.endsWith('.cpuprofile') && Number(name.split('.')[3]) === gateway?.pid;
  for (const file of readdirSync(values.profile).filter(mine)) {
    const { total, layers } = summarizeProfile(join(values.profile, file));
    say(`\n${file}: ${(total / 1000).toFixed(1)} s busy`);
    for (const [layer, ms] of layers.slice(0, 25)) say(`  ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${layer}`);
  }
}
