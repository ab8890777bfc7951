/**
 * Issue 50's list and page goals, alone: `GET /v1/payments?limit=20` (plain, filtered, with a cursor)
 * and `GET /v1/customers?limit=20` beside pgbench running the same page query on the platform's own
 * tables (20 rows of the account and mode, newest first, on the list's index), and the hosted page
 * `GET /pay/{id}` beside the API's read by id, all in one run; then the database round trips
 * (transactions) per request in each database. Faster than `pnpm bench` when only these paths change.
 * Not a test.
 *
 *   node tools/bench/src/list-ratio.ts [--seconds 8] [--rounds 2] [--connections 64] [--only TEXT] [--profile DIR] [--no-trips]
 *
 * --only keeps the figures whose title contains TEXT (their baselines are always measured); --profile
 * runs every process under --cpu-prof into DIR and prints where the read paths' CPU went.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { judgeGoals, type Goal } from './goals.ts';
import { cpuSplit, descendants, formatRow, load, load1, pgbench, type Figure } from './measure.ts';
import { startOwnPlatform } from './own-platform.ts';
import { summarizeProfile } from './profile.ts';
import { roundTripsPerRequest } from './round-trips.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '2' },
    only: { type: 'string' },
    profile: { type: 'string' },
    trips: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const work = mkdtempSync(join(tmpdir(), 'hc-list-ratio-'));
const say = (line: string) => process.stdout.write(`${line}\n`);

say(`starting a platform of its own (load ${load1().toFixed(1)})…`);
const profileEnv: NodeJS.ProcessEnv = values.profile
  ? { NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --cpu-prof --cpu-prof-dir=${values.profile}`.trim() }
  : {};
if (values.profile) mkdirSync(values.profile, { recursive: true });
const platform = await startOwnPlatform('list-ratio', work, profileEnv);
const headers = { authorization: `Bearer ${platform.key}`, 'content-type': 'application/json' };
const api = platform.apiUrl;
const accountId = platform.pipeline.accountId;

// 40 payments of 40 buyers: 40 customers, so both lists have a full page and a next one.
const ids: string[] = [];
for (let i = 0; i < 40; i += 1) {
  const body = JSON.stringify({ amount: '25.00', currency: 'EUR', description: 'Bench', customer_email: `buyer${i}@example.com` });
  const answer = await fetch(`${api}/v1/checkout_sessions`, { method: 'POST', headers, body });
  ids.push(((await answer.json()) as { id: string }).id);
}
const firstCustomers = await waitForCustomers(20);

/** The customers projection catches up on its own time: wait for a full page before measuring it. */
async function waitForCustomers(count: number): Promise<{ id: string }[]> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const page = (await (await fetch(`${api}/v1/customers?limit=${count}`, { headers })).json()) as { data?: { id: string }[] };
    if ((page.data?.length ?? 0) >= count) return page.data!;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the customers list never reached a full page');
}

// pgbench: the lists' own page queries on the platform's own databases and rows (read-only).
const script = (name: string, sql: string): string => {
  const file = join(work, name);
  writeFileSync(file, `${sql}\n`);
  return file;
};
const checkoutDb = platform.setting.env['CHECKOUT_DATABASE_URL']!;
const customersDb = platform.setting.env['CUSTOMERS_DATABASE_URL']!;
const pageWhere = `account_id = '${accountId}' AND livemode = false ORDER BY created_at DESC, id DESC LIMIT 21`;
const baselines = {
  select: () => pgbenchOn('pgbench pk select', checkoutDb, script('pk.sql', `SELECT * FROM checkout_sessions WHERE id = '${ids[7]}';`)),
  payments: () =>
    pgbenchOn('pgbench payments page', checkoutDb, script('payments.sql', `SELECT * FROM checkout_sessions WHERE ${pageWhere};`)),
  customers: () => pgbenchOn('pgbench customers page', customersDb, script('customers.sql', `SELECT * FROM customers WHERE ${pageWhere};`)),
};

const pgbenchOn = (title: string, url: string, file: string): Promise<Figure> =>
  pgbench(title, url, file, work, { clients: connections, seconds });

type Base = keyof typeof baselines;
const payment = ids[0]!;
const figures: { title: string; url: string; base: Base | 'read' }[] = [
  { title: 'GET /v1/payments/:id', url: `${api}/v1/payments/${payment}`, base: 'select' },
  { title: 'GET /v1/payments?limit=20', url: `${api}/v1/payments?limit=20`, base: 'payments' },
  { title: 'GET /v1/payments?limit=20&status=open', url: `${api}/v1/payments?limit=20&status=open`, base: 'payments' },
  { title: 'GET /v1/payments?limit=20&starting_after', url: `${api}/v1/payments?limit=20&starting_after=${ids[35]}`, base: 'payments' },
  { title: 'GET /v1/customers?limit=20', url: `${api}/v1/customers?limit=20`, base: 'customers' },
  {
    title: 'GET /v1/customers?limit=20&starting_after',
    url: `${api}/v1/customers?limit=20&starting_after=${firstCustomers[4]!.id}`,
    base: 'customers',
  },
  { title: 'GET /pay/{id} (pages)', url: `${platform.pagesUrl}/pay/${payment}`, base: 'read' },
];
// Issue 50's goals for every list figure (p99 ≤ 60 ms, 30% of its page query) and the page view.
const goals: Goal[] = figures.map(({ title, base }) =>
  base === 'read'
    ? { figure: title, baseline: 'GET /v1/payments/:id', minSharePercent: 50 }
    : {
        figure: title,
        baseline: `pgbench ${base === 'select' ? 'pk select' : `${base} page`}`,
        minSharePercent: base === 'select' ? 20 : 30,
        ...(base === 'select' ? {} : { maxP99Ms: 60 }),
      },
);
const measured = figures.filter((figure) => figure.base === 'read' || !values.only || figure.title.includes(values.only));
const processes = descendants(platform.pid).filter((p) => /gateway|checkout|customers|pages|notifications/.test(p.name));
const headersOf = (url: string) => (url.includes('/pay/') ? { 'accept-language': 'en' } : headers);

try {
  for (const { url } of measured) await load('warm-up', { url, headers: headersOf(url), connections, duration: 2 });
  for (let round = 1; round <= Number(values.rounds); round += 1) {
    say(`\nround ${round} (load ${load1().toFixed(1)}), ${seconds} s per figure, ${connections} connections`);
    const base: Partial<Record<Base | 'read', Figure>> = {};
    for (const name of Object.keys(baselines) as Base[]) {
      base[name] = await baselines[name]();
      say(formatRow(base[name]));
    }
    const taken: Figure[] = Object.values(base);
    for (const { title, url, base: against } of measured) {
      const split = cpuSplit(processes);
      const figure = await load(title, { url, headers: headersOf(url), connections, duration: seconds });
      if (title === 'GET /v1/payments/:id') base.read = figure;
      taken.push(figure);
      say(formatRow(figure, base[against]));
      say(`    CPU per request: ${split(figure.rate * seconds)}`);
    }
    say('goals (issue 50):');
    for (const verdict of judgeGoals(taken, goals)) if (!verdict.line.startsWith('NOT MEASURED')) say(`  ${verdict.line}`);
  }
  if (values.trips) say('\ndatabase round trips (transactions) per request, 200 requests one at a time:');
  const databases = values.trips
    ? { checkout: checkoutDb, customers: customersDb, notifications: platform.setting.env['NOTIFICATIONS_DATABASE_URL']! }
    : undefined;
  if (databases)
    for (const { title, url } of measured) say(`  ${title.padEnd(44)} ${await roundTripsPerRequest(url, headersOf(url), databases, 200)}`);
} finally {
  await platform.stop();
  rmSync(work, { recursive: true, force: true });
}

if (values.profile) {
  for (const file of readdirSync(values.profile).filter((name) => name.endsWith('.cpuprofile'))) {
    const name = processes.find((p) => p.pid === Number(file.split('.')[3]))?.name;
    if (!name) continue;
    const { total, layers } = summarizeProfile(join(values.profile, file));
    say(`\n${name} (${file}): ${(total / 1000).toFixed(1)} s busy`);
    for (const [layer, ms] of layers.slice(0, 20)) say(`  ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${layer}`);
  }
}
