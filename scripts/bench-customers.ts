/**
 * Measures how far the customers context trails checkout (eventual consistency), against a running
 * platform: the time from a create's answer until GET /v1/customers?email= shows the customer, and
 * from a simulated payment's answer until the customer's paid_orders_count and spent reflect it.
 * Prints p50/p95/p99/max; it asserts nothing.
 *
 *   RATE_LIMIT_REQUESTS_PER_MINUTE=1000000 RATE_LIMIT_STARTS_PER_MINUTE=1000000 ./scripts/start   # copy the two lines
 *   GATEWAY_URL=… TEST_SECRET_KEY=… node scripts/bench-customers.ts [orders=50]
 *
 * Only loopback targets are allowed. Polling every 2 ms adds up to ~2 ms plus one GET to each figure.
 */
const url = process.env['GATEWAY_URL'];
const key = process.env['TEST_SECRET_KEY'];
if (!url || !key) throw new Error('Set GATEWAY_URL and TEST_SECRET_KEY (printed by ./scripts/start).');
const host = new URL(url).hostname;
if (host !== 'localhost' && host !== '::1' && !host.startsWith('127.')) throw new Error('Benchmarks only target this machine.');
const orders = Number(process.argv[2] ?? 50);
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

async function call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Milliseconds until `done` holds for the customer with `email` (polled as fast as the API answers). */
async function lagUntil(email: string, since: number, done: (customer: Record<string, unknown> | undefined) => boolean): Promise<number> {
  for (;;) {
    const page = await call('GET', `/v1/customers?email=${encodeURIComponent(email)}`);
    const customer = (page['data'] as Record<string, unknown>[])[0];
    if (done(customer)) return performance.now() - since;
    if (performance.now() - since > 10_000) throw new Error(`customer ${email} did not catch up within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function report(title: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  console.log(
    `${title.padEnd(34)} n=${sorted.length}   p50 ${at(0.5).padStart(6)} ms   p95 ${at(0.95).padStart(6)} ms   p99 ${at(0.99).padStart(6)} ms   max ${sorted.at(-1)!.toFixed(1).padStart(6)} ms`,
  );
}

const run = `${Date.now()}`;
const created: number[] = [];
const paid: number[] = [];
for (let i = 0; i < orders; i += 1) {
  const email = `bench-${run}-${i}@example.com`;
  const session = await call('POST', '/v1/checkout_sessions', {
    amount: '12.50',
    currency: 'USD',
    description: 'Lag probe',
    customer_email: email,
  });
  created.push(await lagUntil(email, performance.now(), (c) => c !== undefined));
  await call('POST', `/v1/checkout_sessions/${String(session['id'])}/start`, {});
  await call('POST', `/v1/payments/${String(session['id'])}/simulate`, { outcome: 'paid' });
  paid.push(await lagUntil(email, performance.now(), (c) => c?.['paid_orders_count'] === 1));
}
report('create → customer visible', created);
report('paid → counters reflect it', paid);
