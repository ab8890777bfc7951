/**
 * Benchmark of the hot merchant paths against a running platform: create a checkout session (with
 * and without Idempotency-Key) and retrieve it; then, at 64 connections, the buyer's hosted page
 * `GET /pay/{id}` next to its baseline `GET /v1/payments/:id` (the page must not be slower). Prints
 * requests/s and p50/p99 latency; it asserts nothing (speed goals live here, not in tests).
 *
 *   RATE_LIMIT_REQUESTS_PER_MINUTE=1000000 PAGES_VIEWS_PER_MINUTE=1000000 ./scripts/start   # in one shell; copy the two lines
 *   GATEWAY_URL=… TEST_SECRET_KEY=… node tools/bench/src/bench-create.ts [seconds=10] [connections=10]
 *
 * Only loopback targets are allowed: the benchmark never sends traffic off this machine.
 */
import autocannon from 'autocannon';

const url = process.env['GATEWAY_URL'];
const key = process.env['TEST_SECRET_KEY'];
if (!url || !key) throw new Error('Set GATEWAY_URL and TEST_SECRET_KEY (printed by ./scripts/start).');
const host = new URL(url).hostname;
if (host !== 'localhost' && host !== '::1' && !host.startsWith('127.')) throw new Error('Benchmarks only target this machine.');
const duration = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 10);
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const body = JSON.stringify({
  amount: '25.00',
  currency: 'EUR',
  description: 'Benchmark order',
  customer_email: 'bench@example.com',
  metadata: { run: 'bench' },
});

async function run(title: string, options: autocannon.Options): Promise<void> {
  const result = await autocannon({ duration, connections, ...options });
  const errors = result.non2xx + result.errors;
  console.log(
    `${title.padEnd(32)} ${result.requests.average.toFixed(0).padStart(6)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   non-2xx/errors ${errors}`,
  );
}

let counter = 0;
await run('POST /v1/checkout_sessions', { url: `${url}/v1/checkout_sessions`, method: 'POST', headers, body });
await run('POST … with Idempotency-Key', {
  url: `${url}/v1/checkout_sessions`,
  method: 'POST',
  headers,
  body,
  // A fresh key per request: every request takes the full idempotent-create path.
  requests: [
    {
      setupRequest: (request) => ({
        ...request,
        headers: { ...headers, 'idempotency-key': `bench-${process.pid}-${Date.now()}-${(counter += 1)}` },
      }),
    },
  ],
});
const created = (await (await fetch(`${url}/v1/checkout_sessions`, { method: 'POST', headers, body })).json()) as { id: string };
await run('GET /v1/checkout_sessions/:id', { url: `${url}/v1/checkout_sessions/${created.id}`, headers });
await run('GET /v1/payments?limit=20', { url: `${url}/v1/payments?limit=20`, headers });

// The hosted page against the API read of the same payment, both through the front router.
await run('GET /v1/payments/:id (64 conn)', { url: `${url}/v1/payments/${created.id}`, headers, connections: 64 });
await run('GET /pay/{id} (64 conn)', {
  url: `${url}/pay/${created.id}`,
  headers: { 'accept-language': 'de-DE,de;q=0.9' },
  connections: 64,
});
