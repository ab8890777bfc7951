/**
 * CPU per request of the gateway and checkout, for comparing two versions of a hot path (A/B):
 * starts a platform of its own, warms up, then sends 8 s of reads, 8 s of creates and 8 s of creates
 * with a fresh Idempotency-Key each at 64 connections and prints req/s, p99, the whole machine's busy CPU milliseconds per request (PostgreSQL
 * and the load generator included), PostgreSQL's and the load generator's, and each process's CPU milliseconds and system calls per request
 * served. CPU per
 * request moves less with the machine's other load than req/s does (docs/performance.md). Not a test.
 *
 *   node tools/bench/src/cpu-per-request.ts
 */
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import autocannon from 'autocannon';
import { launchPlatform, platformSetting, stopPlatform } from '../../platform/src/platform-process.ts';
import { cpuSeconds, descendants, machineBusySeconds, postgresSeconds, syscalls } from './measure.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const setting = await platformSetting('cpu-per-request');
const env = {
  ...process.env,
  ...setting.env,
  PLATFORM_HOME: mkdtempSync(join(tmpdir(), 'hc-cpu-per-request-')),
  RATE_LIMIT_REQUESTS_PER_MINUTE: '1000000',
  RATE_LIMIT_STARTS_PER_MINUTE: '1000000',
};
const platform = await launchPlatform(process.execPath, [join(root, 'tools/platform/src/platform.ts')], {
  cwd: root,
  env,
  timeoutMs: 180_000,
}).ready;
const apiUrl = `http://127.0.0.1:${setting.env['PLATFORM_GATEWAY_BACKEND_PORT']}`;
const headers = { authorization: `Bearer ${platform.printed['TEST_SECRET_KEY']}`, 'content-type': 'application/json' };
const body = JSON.stringify({ amount: '25.00', currency: 'EUR', description: 'x', customer_email: 'bench@example.com' });
const created = (await (await fetch(`${apiUrl}/v1/checkout_sessions`, { method: 'POST', headers, body })).json()) as { id: string };
let keys = 0;
const freshKey = (): string => `cpu-${process.pid}-${(keys += 1)}`;
const procs = descendants(platform.process.pid!).filter((p) => /gateway|checkout|customers|notifications|webhooks/.test(p.name));
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
  ];
  for (const [name, opts] of figures) {
    await autocannon({ ...opts, connections: 64, duration: 3 });
    const before = new Map(procs.map((p) => [p.pid, { cpu: cpuSeconds(p.pid), calls: syscalls(p.pid) }]));
    const machineBefore = machineBusySeconds();
    const postgresBefore = postgresSeconds();
    const loadBefore = process.cpuUsage();
    const r = await autocannon({ ...opts, connections: 64, duration: 8 });
    const n = r.requests.total;
    const machine = (1000 * (machineBusySeconds() - machineBefore)) / n;
    const postgres = (1000 * (postgresSeconds() - postgresBefore)) / n;
    const load = process.cpuUsage(loadBefore);
    const loadGenerator = (load.user + load.system) / 1000 / n;
    console.log(
      `${name}: ${r.requests.average} req/s p99 ${r.latency.p99} ms, ${r.non2xx + r.errors + r.timeouts} errors; machine ${machine.toFixed(3)} ms/req; ` +
        `postgres ${postgres.toFixed(3)} ms/req, load generator ${loadGenerator.toFixed(3)} ms/req, ` +
        procs
          .map((p) => {
            const was = before.get(p.pid)!;
            const cpu = (1000 * (cpuSeconds(p.pid) - was.cpu)) / n;
            return `${p.name} ${cpu.toFixed(3)} ms/req ${((syscalls(p.pid) - was.calls) / n).toFixed(1)} syscalls/req`;
          })
          .join(', '),
    );
  }
} finally {
  // Whatever happened above: a benchmark leaves no platform or database behind.
  await stopPlatform(platform);
  await setting.dropDatabases();
}
