// Risk covered: counters that drift when the customers service stops and starts while checkout keeps
// publishing (messages in flight when it stops, redelivered after its restart, must count exactly once).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { CallContext } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { ACCOUNT_SNAPSHOT, eventually, startCustomersEnv, type CustomersEnv } from './customers-env.ts';

const logger = createLogger('customers-restart-test', { level: 'silent' });
const ctx: CallContext = { accountId: 'acct_burst', livemode: false, requestId: 'req_b' };
const EMAILS = ['one@example.com', 'two@example.com', 'three@example.com', 'four@example.com'];
const ORDERS = 40;
let env: CustomersEnv;

beforeAll(async () => {
  env = await startCustomersEnv(logger, 'customers_burst');
});
afterAll(async () => {
  await env.stop();
});

/** One buyer's whole order: created with an email, started, paid (three events). */
async function order(n: number): Promise<void> {
  const id = await env.createSession(ctx, {
    amount: '2.50',
    currency: 'USD',
    description: `order ${n}`,
    customerEmail: EMAILS[n % EMAILS.length],
  });
  await env.checkout.startCheckoutSession({ id, account: ACCOUNT_SNAPSHOT }, ctx);
  await env.checkout.simulatePayment({ id, outcome: 'paid' }, ctx);
}

it('counts every order and payment exactly once across a restart in the middle of a burst', async () => {
  let ordersPlaced = 0;
  const burst = (async () => {
    for (let n = 0; n < ORDERS; n += 4) {
      await Promise.all([n, n + 1, n + 2, n + 3].map(order));
      ordersPlaced += 4;
    }
  })();
  await eventually(
    async () => ordersPlaced,
    (placed) => placed >= 8,
  );
  await env.restart();
  // The restart really happened mid-burst (otherwise this test would prove nothing).
  expect(ordersPlaced).toBeLessThan(ORDERS);
  await burst;

  const expected = { ordersCount: ORDERS / EMAILS.length, paidOrdersCount: ORDERS / EMAILS.length, spent: { amounts: { USD: '25.00' } } };
  const settled = await eventually(
    () => env.customers().listCustomers({ limit: 10 }, ctx),
    (page) => page.customers.length === EMAILS.length && page.customers.every((c) => c.paidOrdersCount === expected.paidOrdersCount),
    15_000,
  );
  expect(settled.customers.map((c) => c.email).sort()).toEqual([...EMAILS].sort());
  for (const customer of settled.customers) expect(customer).toMatchObject(expected);
  // Give any straggling redelivery the chance to double-count, then check again.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const again = await env.customers().listCustomers({ limit: 10 }, ctx);
  for (const customer of again.customers) expect(customer).toMatchObject(expected);
  const orders = await env.customers().listOrders({ limit: 100 }, ctx);
  expect(orders.orders).toHaveLength(ORDERS);
  expect(orders.orders.every((o) => o.status === 'paid')).toBe(true);
});
