/**
 * CPU per request, for comparing two versions of a hot path (A/B): starts a platform of its own, warms
 * up, then sends 8 s of reads, 8 s of creates, 8 s of creates with a fresh Idempotency-Key each,
 * 8 s of creates each by a new buyer (a customer email never seen before), 8 s of list pages
 * (`GET /v1/payments?limit=20`) and 8 s of buyer page views (`GET /pay/{id}` on pages) at
 * 64 connections and prints req/s, p99, PostgreSQL's commits per request and the CPU milliseconds per
 * request of each service process (with its system calls), of PostgreSQL, of the load generator and
 * of the whole machine (measure.ts cpuSplit). CPU per request moves less with the machine's other load
 * than req/s does (docs/performance.md). Not a test.
 *
 *   node tools/bench/src/cpu-per-request.ts
 */
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import autocannon from 'autocannon';
import { testDatabaseServerUrl } from '@hc/test-kit';
import { launchPlatform, platformSetting, stopPlatform } from '../../platform/src/platform-process.ts';
import { cpuSplit, descendants } from './measure.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const setting = await platformSetting('cpu-per-request');
const env = {
  ...process.env,
  ...setting.env,
  PLATFORM_HOME: mkdtempSync(join(tmpdir(), 'hc-cpu-per-request-')),
  RATE_LIMIT_REQUESTS_PER_MINUTE: '1000000',
  RATE_LIMIT_STARTS_PER_MINUTE: '1000000',
  PAGES_VIEWS_PER_MINUTE: '1000000',
};
const platform = await launchPlatform(process.execPath, [join(root, 'tools/platform/src/platform.ts')], {
  cwd: root,
  env,
  timeoutMs: 180_000,
}).ready;
const apiUrl = `http://127.0.0.1:${setting.env['PLATFORM_GATEWAY_BACKEND_PORT']}`;
const pagesUrl = `http://127.0.0.1:${setting.env['PAGES_PORT']}`;
const headers = { authorization: `Bearer ${platform.printed['TEST_SECRET_KEY']}`, 'content-type': 'application/json' };
const body = JSON.stringify({ amount: '25.00', currency: 'EUR', description: 'x', customer_email: 'bench@example.com' });
const created = (await (await fetch(`${apiUrl}/v1/checkout_sessions`, { method: 'POST', headers, body })).json()) as { id: string };
/** Transactions the PostgreSQL server has committed, every database together (each one a WAL flush). */
const commits = (): number =>
  Number(
    execFileSync('psql', [testDatabaseServerUrl(), '-tAc', 'SELECT sum(xact_commit) FROM pg_stat_database'], { encoding: 'utf8' }).trim(),
  );
let keys = 0;
const freshKey = (): string => `cpu-${process.pid}-${(keys += 1)}`;
const procs = descendants(platform.process.pid!).filter((p) =>
  /gateway|checkout|customers|notifications|webhooks|accounts|pages/.test(p.name),
);
try {
  const figures: [string, autocannon.Options][] = [
    ['get', { url: `${apiUrl}/v1/checkout_sessions/${created.id}`, headers }],
    ['create', { url: `${apiUrl}/v1/checkout_sessions`, method: 'POST', headers, body }],
    // A fresh Idempotency-Key per request: every request takes the whole claim, create, complete path.
    [
      'idempotent create',
      {
        url: `${apiUrl}/v1/checkout_sessions`,
        method: 'POST',
        headers,
        body,
        requests: [{ setupRequest: (request) => ({ ...request, headers: { ...headers, 'idempotency-key': freshKey() } }) }],
      },
    ],
    // A new buyer per order, as most of a shop's orders are: the customers context creates a customer
    // for each one, where the figures above add every order to one regular customer.
    [
      'create, a new buyer each',
      {
        url: `${apiUrl}/v1/checkout_sessions`,
        method: 'POST',
        headers,
        requests: [
          { setupRequest: (request) => ({ ...request, body: body.replace('bench@example.com', `buyer-${freshKey()}@example.com`) }) },
        ],
      },
    ],
    ['list', { url: `${apiUrl}/v1/payments?limit=20`, headers }],
    ['page view', { url: `${pagesUrl}/pay/${created.id}`, headers: { 'accept-language': 'en' } }],
  ];
  for (const [name, opts] of figures) {
    await autocannon({ ...opts, connections: 64, duration: 3 });
    const split = cpuSplit(procs);
    const commitsBefore = commits();
    const r = await autocannon({ ...opts, connections: 64, duration: 8 });
    const n = r.requests.total;
    console.log(
      `${name}: ${r.requests.average} req/s p99 ${r.latency.p99} ms, ${r.non2xx + r.errors + r.timeouts} errors; ` +
        `${((commits() - commitsBefore) / n).toFixed(2)} PostgreSQL commits/req; per request: ${split(n)}`,
    );
  }
} finally {
  // Whatever happened above: a benchmark leaves no platform or database behind.
  await stopPlatform(platform);
  await setting.dropDatabases();
}
