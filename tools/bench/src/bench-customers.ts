/**
 * Measures read-your-writes on customers (docs/adr/0011) against a running platform:
 *
 * 1. create → customer visible and paid → counters: the time from a write's answer until ONE
 *    `GET /v1/customers?email=` (no polling: the barrier makes the first read reflect the write)
 *    answers with it. This is the projection's lag as a merchant now sees it: one slower read.
 * 2. the barrier's own cost on a customers read, side by side in the same run: GetCustomer over
 *    gRPC without a barrier (the baseline) against the barrier the gateway adds (checkout's
 *    GetEventsPosition, then GetCustomer waiting on it), while no write is in flight.
 *
 * Prints p50/p95/p99/max; it asserts nothing.
 *
 *   RATE_LIMIT_REQUESTS_PER_MINUTE=1000000 RATE_LIMIT_STARTS_PER_MINUTE=1000000 ./scripts/start   # copy the two lines
 *   GATEWAY_URL=… TEST_SECRET_KEY=… ACCOUNT_ID=acct_… node tools/bench/src/bench-customers.ts [orders=50] [reads=500]
 *
 * ACCOUNT_ID (the demo merchant, printed by ./scripts/start) enables part 2, with
 * CHECKOUT_GRPC_ADDRESS and CUSTOMERS_GRPC_ADDRESS when not the defaults. Only loopback targets.
 */
import { createServiceClient } from '@hc/grpc';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { CustomersService } from '@hc/proto/customers/v1';

const url = process.env['GATEWAY_URL'];
const key = process.env['TEST_SECRET_KEY'];
if (!url || !key) throw new Error('Set GATEWAY_URL and TEST_SECRET_KEY (printed by ./scripts/start).');
const host = new URL(url).hostname;
if (host !== 'localhost' && host !== '::1' && !host.startsWith('127.')) throw new Error('Benchmarks only target this machine.');
const orders = Number(process.argv[2] ?? 50);
const reads = Number(process.argv[3] ?? 500);
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

async function call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Milliseconds of the one read after a write; throws if that read does not reflect the write. */
async function readReflects(email: string, done: (customer: Record<string, unknown> | undefined) => boolean): Promise<number> {
  const since = performance.now();
  const page = await call('GET', `/v1/customers?email=${encodeURIComponent(email)}`);
  const elapsed = performance.now() - since;
  const customer = (page['data'] as Record<string, unknown>[])[0];
  if (!done(customer)) throw new Error(`the read right after the write missed it: ${JSON.stringify(customer)}`);
  return elapsed;
}

function report(title: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  console.log(
    `${title.padEnd(44)} n=${sorted.length}   p50 ${at(0.5).padStart(6)} ms   p95 ${at(0.95).padStart(6)} ms   p99 ${at(0.99).padStart(6)} ms   max ${sorted.at(-1)!.toFixed(1).padStart(6)} ms`,
  );
}

// A backlog (e.g. from bench-create just before) is not what this measures: wait until reads pass the barrier.
for (let waited = 0; ; waited += 1) {
  const response = await fetch(`${url}/v1/customers?limit=1`, { headers });
  await response.arrayBuffer();
  if (response.status !== 503) break;
  if (waited === 120) throw new Error('customers still catching up after 2 minutes');
}

const run = `${Date.now()}`;
const created: number[] = [];
const paid: number[] = [];
let lastEmail = '';
for (let i = 0; i < orders; i += 1) {
  const email = `bench-${run}-${i}@example.com`;
  const session = await call('POST', '/v1/checkout_sessions', {
    amount: '12.50',
    currency: 'USD',
    description: 'Lag probe',
    customer_email: email,
  });
  created.push(await readReflects(email, (c) => c !== undefined));
  await call('POST', `/v1/checkout_sessions/${String(session['id'])}/start`, {});
  await call('POST', `/v1/payments/${String(session['id'])}/simulate`, { outcome: 'paid' });
  paid.push(await readReflects(email, (c) => c?.['paid_orders_count'] === 1));
  lastEmail = email;
}
report('create → one read shows the customer', created);
report('paid → one read shows the counters', paid);

const accountId = process.env['ACCOUNT_ID'];
if (!accountId) {
  console.log('(set ACCOUNT_ID to measure the barrier’s own cost on a read)');
} else {
  const checkout = createServiceClient(CheckoutService, process.env['CHECKOUT_GRPC_ADDRESS'] ?? '127.0.0.1:50051');
  const customers = createServiceClient(CustomersService, process.env['CUSTOMERS_GRPC_ADDRESS'] ?? '127.0.0.1:50053');
  const ctx = { accountId, livemode: false, requestId: `bench-${run}` };
  const lastCustomerId = ((await call('GET', `/v1/customers?email=${encodeURIComponent(lastEmail)}`))['data'] as { id: string }[])[0]!.id;
  const plain: number[] = [];
  const barred: number[] = [];
  // Interleaved, so both see the same machine load.
  for (let i = 0; i < reads; i += 1) {
    let since = performance.now();
    await customers.getCustomer({ id: lastCustomerId }, ctx);
    plain.push(performance.now() - since);
    since = performance.now();
    const { streamSequence } = await checkout.getEventsPosition({ waitMs: 2000 }, ctx);
    await customers.getCustomer({ id: lastCustomerId, barrier: { checkoutSequence: streamSequence, waitMs: 2000 } }, ctx);
    barred.push(performance.now() - since);
  }
  report('GetCustomer, no barrier (baseline)', plain);
  report('GetCustomer with the read barrier', barred);
  checkout.close();
  customers.close();
}
