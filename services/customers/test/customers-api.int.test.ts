// Risk covered: customers that do not follow the spec's rules when built from REAL checkout events
// (checkout + settlement over gRPC, JetStream, PostgreSQL), counters that miss or double-count
// payments, pages and filters (grouped lists too) that leak across accounts or modes, a private note in the public
// object, and an erasure that leaves personal data behind or never tells the other contexts.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connectNats, consumeDurable, contextStream, DEFAULT_EVENT_RETENTION, type DurableConsumer, type NatsConnection } from '@hc/events';
import type { CallContext } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import type { Customer } from '@hc/proto/customers/v1';
import pg from 'pg';
import type { CustomerErasedEvent } from '../src/domain/erasure.ts';
import { ACCOUNT_SNAPSHOT, eventually, startCustomersEnv, type CustomersEnv } from './customers-env.ts';

const logger = createLogger('customers-api-test', { level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const test: CallContext = { accountId: 'acct_C', livemode: false, requestId: 'req_c' };
const live: CallContext = { ...test, livemode: true };
const otherAccount: CallContext = { ...test, accountId: 'acct_D' };
let env: CustomersEnv;
let nats: NatsConnection;
let erasedConsumer: DurableConsumer;
const erasedEvents: CustomerErasedEvent[] = [];

beforeAll(async () => {
  env = await startCustomersEnv(logger, 'customers_api');
  nats = await connectNats(env.stack.natsUrl, 'customers-api-test');
  const stream = contextStream(env.stack.natsPrefix, 'customers', DEFAULT_EVENT_RETENTION);
  erasedConsumer = await consumeDurable({
    nats,
    stream: stream.name,
    durable: 'erasure_watcher',
    filterSubject: stream.subjects[0]!,
    logger,
    handle: async (message) => {
      erasedEvents.push(message.data as CustomerErasedEvent);
    },
  });
});

afterAll(async () => {
  await erasedConsumer.stop();
  await nats.drain();
  await env.stop();
});

const customers = () => env.customers();

/** The one customer with this email in the caller's mode, once `done` holds for it (or undefined). */
function customerByEmail(ctx: CallContext, email: string, done: (c: Customer | undefined) => boolean = (c) => c !== undefined) {
  return eventually(async () => (await customers().listCustomers({ limit: 1, email }, ctx)).customers[0], done);
}

const address = (city: string) => ({ name: 'Ada', line1: '12 St James', city, postalCode: 'SW1Y 4JH', country: 'GB' });

async function start(ctx: CallContext, id: string, email?: string): Promise<void> {
  await env.checkout.startCheckoutSession({ id, customerEmail: email, account: ACCOUNT_SNAPSHOT }, ctx);
}

describe('rules 1 and 2: one customer per email per mode, made at creation', () => {
  it('finds the same customer in any letter case, and keeps Test and Live apart', async () => {
    await env.createSession(test, { amount: '10.00', currency: 'USD', description: 'a', customerEmail: 'Ada@Example.com' });
    await env.createSession(test, { amount: '12.00', currency: 'USD', description: 'b', customer: { email: 'ADA@example.COM' } });
    await env.createSession(live, { amount: '12.00', currency: 'USD', description: 'c', customerEmail: 'ada@example.com' });
    const ada = await customerByEmail(test, 'ada@EXAMPLE.com', (c) => c?.ordersCount === 2);
    expect(ada).toMatchObject({ email: 'ada@example.com', livemode: false, ordersCount: 2, paidOrdersCount: 0, erased: false });
    const adaLive = await customerByEmail(live, 'ada@example.com');
    expect(adaLive).toMatchObject({ livemode: true, ordersCount: 1 });
    expect(adaLive!.id).not.toBe(ada!.id);
    expect(ada!.spent?.amounts).toEqual({});
  });
});

describe("rule 3: each order's details replace the saved ones", () => {
  it('replaces provided details, keeps left-out ones, and keeps store accounts per store', async () => {
    const store = { platform: 'shopify', storeId: 'shop-42', storeName: "Bea's Shop", customerId: '8812' };
    await env.createSession(test, {
      amount: '10.00',
      currency: 'USD',
      description: 'a',
      customer: { email: 'bea@example.com', name: 'Bea', phone: '+44 1', shippingAddress: address('London'), storeAccount: store },
    });
    await env.createSession(test, {
      amount: '10.00',
      currency: 'USD',
      description: 'b',
      customer: {
        email: 'bea@example.com',
        name: 'Bea King',
        billingAddress: address('Leeds'),
        storeAccount: { ...store, storeName: 'Renamed' },
      },
    });
    const bea = await customerByEmail(test, 'bea@example.com', (c) => c?.ordersCount === 2);
    expect(bea).toMatchObject({
      name: 'Bea King',
      phone: '+44 1',
      shippingAddress: { city: 'London' },
      billingAddress: { city: 'Leeds' },
      storeAccounts: [{ platform: 'shopify', storeId: 'shop-42', storeName: 'Renamed', customerId: '8812' }],
    });
  });
});

describe('rule 4: a session created without an email', () => {
  it('keeps its details on the order and gives them to the customer of the email given at start', async () => {
    const id = await env.createSession(test, {
      amount: '20.00',
      currency: 'USD',
      description: 'a',
      customer: { name: 'Cy', phone: '+1 555', shippingAddress: address('Boston') },
    });
    const order = await eventually(
      () =>
        customers()
          .getOrder({ id }, test)
          .catch(() => undefined),
      (o) => o !== undefined,
    );
    expect(order?.order).toMatchObject({ id, name: 'Cy', phone: '+1 555', status: 'open', amount: '20.00', currency: 'USD' });
    expect(order?.order?.customerId).toBeUndefined();
    await start(test, id, 'Cy@Example.com');
    const cy = await customerByEmail(test, 'cy@example.com');
    expect(cy).toMatchObject({ name: 'Cy', phone: '+1 555', shippingAddress: { city: 'Boston' }, ordersCount: 1 });
    expect((await customers().getOrder({ id }, test)).order).toMatchObject({ customerId: cy!.id, email: 'cy@example.com' });
  });
});

describe('rule 5: a start with another email moves the order', () => {
  it('to the customer of the new email, with exact counts on both', async () => {
    const keep = await env.createSession(test, { amount: '5.00', currency: 'USD', description: 'a', customerEmail: 'dan@example.com' });
    const moved = await env.createSession(test, { amount: '7.00', currency: 'USD', description: 'b', customerEmail: 'dan@example.com' });
    await start(test, moved, 'eve@example.com');
    await env.checkout.simulatePayment({ id: moved, outcome: 'paid' }, test);
    const eve = await customerByEmail(test, 'eve@example.com', (c) => c?.paidOrdersCount === 1);
    expect(eve).toMatchObject({ ordersCount: 1, paidOrdersCount: 1, spent: { amounts: { USD: '7.00' } } });
    const dan = await customerByEmail(test, 'dan@example.com');
    expect(dan).toMatchObject({ ordersCount: 1, paidOrdersCount: 0, spent: { amounts: {} } });
    const danOrders = await customers().listOrders({ limit: 10, customerId: dan!.id }, test);
    expect(danOrders.orders.map((o) => o.id)).toEqual([keep]);
  });
});

describe('counters', () => {
  it('count paid orders, held payments once accepted, and spent per currency', async () => {
    const usd = await env.createSession(test, { amount: '10.00', currency: 'USD', description: 'a', customerEmail: 'fay@example.com' });
    const eur = await env.createSession(test, { amount: '30.50', currency: 'EUR', description: 'b', customerEmail: 'fay@example.com' });
    const held = await env.createSession(test, { amount: '4.00', currency: 'EUR', description: 'c', customerEmail: 'fay@example.com' });
    const failed = await env.createSession(test, { amount: '9.00', currency: 'EUR', description: 'd', customerEmail: 'fay@example.com' });
    for (const id of [usd, eur, held, failed]) await start(test, id);
    await env.checkout.simulatePayment({ id: usd, outcome: 'paid' }, test);
    await env.checkout.simulatePayment({ id: eur, outcome: 'paid' }, test);
    await env.checkout.simulatePayment({ id: held, outcome: 'underpaid' }, test);
    await env.checkout.simulatePayment({ id: failed, outcome: 'failed' }, test);
    const beforeAccept = await customerByEmail(test, 'fay@example.com', (c) => c?.paidOrdersCount === 2);
    expect(beforeAccept).toMatchObject({ ordersCount: 4, paidOrdersCount: 2, spent: { amounts: { USD: '10.00', EUR: '30.50' } } });
    await eventually(
      () => customers().getOrder({ id: held }, test),
      (r) => r.order?.status === 'held',
    );
    await env.checkout.acceptHeldPayment({ id: held }, test);
    const fay = await customerByEmail(test, 'fay@example.com', (c) => c?.paidOrdersCount === 3);
    expect(fay).toMatchObject({ ordersCount: 4, paidOrdersCount: 3, spent: { amounts: { USD: '10.00', EUR: '34.50' } } });
    const orders = await customers().listOrders({ limit: 10, customerId: fay!.id }, test);
    expect(Object.fromEntries(orders.orders.map((o) => [o.id, o.status]))).toEqual({
      [usd]: 'paid',
      [eur]: 'paid',
      [held]: 'paid',
      [failed]: 'failed',
    });
    expect(orders.orders.find((o) => o.id === usd)?.paidAt).toBeDefined();
  });
});

describe('listing', () => {
  it('pages newest first with has_more and starting_after, and refuses a cursor that is not the caller’s', async () => {
    const ctx: CallContext = { ...test, accountId: 'acct_pages' };
    for (const n of [1, 2, 3])
      await env.createSession(ctx, { amount: '1.00', currency: 'USD', description: 'p', customerEmail: `p${n}@example.com` });
    const all = await eventually(
      () => customers().listCustomers({ limit: 10 }, ctx),
      (r) => r.customers.length === 3,
    );
    expect(all.customers.map((c) => c.email)).toEqual(['p3@example.com', 'p2@example.com', 'p1@example.com']);
    const first = await customers().listCustomers({ limit: 2 }, ctx);
    expect(first).toMatchObject({ hasMore: true });
    const second = await customers().listCustomers({ limit: 2, startingAfter: first.customers[1]!.id }, ctx);
    expect(second.customers.map((c) => c.email)).toEqual(['p1@example.com']);
    expect(second.hasMore).toBe(false);
    const foreign = await customerByEmail(test, 'ada@example.com');
    await expect(customers().listCustomers({ limit: 2, startingAfter: foreign!.id }, ctx)).rejects.toMatchObject({
      code: 'invalid_cursor',
      field: 'starting_after',
    });
    await expect(customers().listCustomers({ limit: 2, startingAfter: 'cus_nope' }, ctx)).rejects.toMatchObject({ code: 'invalid_cursor' });
    const orders = await customers().listOrders({ limit: 2 }, ctx);
    expect(orders.orders).toHaveLength(2);
    expect(orders.hasMore).toBe(true);
    await expect(customers().listOrders({ limit: 2, startingAfter: orders.orders[0]!.id }, test)).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
  });

  it('by email: whole address, any case, at most one', async () => {
    expect(
      (await customers().listCustomers({ limit: 10, email: 'P2@EXAMPLE.COM' }, { ...test, accountId: 'acct_pages' })).customers,
    ).toHaveLength(1);
    expect(
      (await customers().listCustomers({ limit: 10, email: 'p2@example' }, { ...test, accountId: 'acct_pages' })).customers,
    ).toHaveLength(0);
  });

  it('as grouped calls (ListCustomerPages): each list as its single call answers it, an error its own, in the caller’s scope', async () => {
    const ctx: CallContext = { ...test, accountId: 'acct_pages' };
    const calls = [{ limit: 2 }, { limit: 2, startingAfter: 'cus_nope' }, { limit: 10, email: 'P2@example.com' }, { limit: 10 }];
    const { outcomes } = await customers().listCustomerPages({ calls, requestIds: ['a', 'b', 'c', 'd'] }, ctx);
    expect(outcomes.map((o) => o.outcome.case)).toEqual(['answer', 'failure', 'answer', 'answer']);
    expect(outcomes[1]!.outcome.value).toMatchObject({ code: 'invalid_cursor', field: 'starting_after' });
    for (const index of [0, 2, 3]) expect(outcomes[index]!.outcome.value).toEqual(await customers().listCustomers(calls[index]!, ctx));
    const elsewhere = await customers().listCustomerPages({ calls: [{ limit: 100 }], requestIds: ['e'] }, otherAccount);
    const emails = (elsewhere.outcomes[0]!.outcome.value as { customers: Customer[] }).customers.map((c) => c.email);
    expect(emails).not.toContain('p2@example.com');
  });
});

describe('isolation', () => {
  it("another account's or mode's customer and orders are not_found", async () => {
    const ada = await customerByEmail(test, 'ada@example.com');
    for (const ctx of [otherAccount, live]) {
      await expect(customers().getCustomer({ id: ada!.id }, ctx)).rejects.toMatchObject({ code: 'not_found' });
      await expect(customers().listOrders({ limit: 5, customerId: ada!.id }, ctx)).rejects.toMatchObject({
        code: 'not_found',
        field: 'customer_id',
      });
      await expect(customers().eraseCustomer({ id: ada!.id }, ctx)).rejects.toMatchObject({ code: 'not_found' });
      await expect(customers().getCustomerNote({ id: ada!.id }, ctx)).rejects.toMatchObject({ code: 'not_found' });
    }
    const [order] = (await customers().listOrders({ limit: 1, customerId: ada!.id }, test)).orders;
    await expect(customers().getOrder({ id: order!.id }, otherAccount)).rejects.toMatchObject({ code: 'not_found' });
    expect((await customers().listCustomers({ limit: 100 }, otherAccount)).customers).toEqual([]);
  });
});

describe('rule 6: the private note', () => {
  it('is kept for the dashboard and never part of the customer object', async () => {
    const ada = await customerByEmail(test, 'ada@example.com');
    await customers().setCustomerNote({ id: ada!.id, note: 'VIP-NOTE-7781 prefers email' }, test);
    expect((await customers().getCustomerNote({ id: ada!.id }, test)).note).toBe('VIP-NOTE-7781 prefers email');
    const shown = await customers().getCustomer({ id: ada!.id }, test);
    const listed = await customers().listCustomers({ limit: 100 }, test);
    expect(JSON.stringify(shown, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('VIP-NOTE');
    expect(JSON.stringify(listed, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('VIP-NOTE');
    await customers().setCustomerNote({ id: ada!.id, note: '' }, test);
    expect((await customers().getCustomerNote({ id: ada!.id }, test)).note).toBeUndefined();
  });
});

describe('rule 7: erasure', () => {
  it('removes personal data here, tells the other contexts, and the same email later starts a new customer', async () => {
    const email = 'gus@example.com';
    const details = {
      email,
      name: 'Gus Grey',
      phone: '+1 777',
      shippingAddress: address('Austin'),
      storeAccount: { platform: 'woo', storeId: 's1', customerId: 'W-9' },
    };
    const paid = await env.createSession(test, { amount: '11.00', currency: 'USD', description: 'a', customer: details });
    const open = await env.createSession(test, { amount: '12.00', currency: 'USD', description: 'b', customer: details });
    await start(test, paid);
    await start(test, open);
    await env.checkout.simulatePayment({ id: paid, outcome: 'paid' }, test);
    const gus = await customerByEmail(test, email, (c) => c?.paidOrdersCount === 1);
    await customers().setCustomerNote({ id: gus!.id, note: 'Gus lives at Austin' }, test);

    const { customer: erased } = await customers().eraseCustomer({ id: gus!.id }, test);
    expect(erased).toMatchObject({
      id: gus!.id,
      erased: true,
      ordersCount: 2,
      paidOrdersCount: 1,
      storeAccounts: [{ platform: 'woo', storeId: 's1' }],
    });
    for (const key of ['email', 'name', 'phone', 'shippingAddress', 'billingAddress'] as const) expect(erased![key]).toBeUndefined();
    expect(erased!.storeAccounts[0]!.customerId).toBeUndefined();
    expect((await customers().eraseCustomer({ id: gus!.id }, test)).customer).toEqual(erased);

    // Nothing personal left in the store (the note included: it may hold personal data too).
    const client = new pg.Client({ connectionString: env.databaseUrl });
    await client.connect();
    const rows = await client.query(
      `SELECT row_to_json(c)::text AS row FROM customers c WHERE id = $1
       UNION ALL SELECT row_to_json(o)::text FROM orders o WHERE customer_id = $1
       UNION ALL SELECT row_to_json(s)::text FROM customer_store_accounts s WHERE customer_id = $1`,
      [gus!.id],
    );
    await client.end();
    expect(rows.rowCount).toBe(4);
    for (const { row } of rows.rows as { row: string }[]) expect(row).not.toMatch(/gus|Gus|\+1 777|Austin|W-9/);

    const event = await eventually(
      async () => erasedEvents.find((e) => e.customerId === gus!.id),
      (e) => e !== undefined,
    );
    expect(event).toEqual({
      id: `${gus!.id}.erased`,
      type: 'customer.erased',
      occurredAt: expect.any(Number),
      accountId: test.accountId,
      livemode: false,
      customerId: gus!.id,
      paymentIds: [paid, open],
      emailRevisions: { [paid]: expect.any(Number), [open]: expect.any(Number) },
    });

    // A later payment event of an erased order (its snapshot may still carry the email) brings nothing back.
    await env.checkout.simulatePayment({ id: open, outcome: 'paid' }, test);
    const after = await eventually(
      () => customers().getCustomer({ id: gus!.id }, test),
      (r) => r.customer?.paidOrdersCount === 2,
    );
    expect(after.customer).toMatchObject({ erased: true, paidOrdersCount: 2, spent: { amounts: { USD: '23.00' } } });
    expect(after.customer?.email).toBeUndefined();
    const order = (await customers().getOrder({ id: open }, test)).order;
    expect(order).toMatchObject({ customerId: gus!.id, status: 'paid' });
    expect(order?.email).toBeUndefined();

    // Listing by the email no longer finds it; the same email later starts a new customer.
    expect((await customers().listCustomers({ limit: 10, email }, test)).customers).toEqual([]);
    await env.createSession(test, { amount: '3.00', currency: 'USD', description: 'c', customerEmail: 'GUS@example.com' });
    const newGus = await customerByEmail(test, email);
    expect(newGus).toMatchObject({ email, ordersCount: 1, erased: false });
    expect(newGus!.id).not.toBe(gus!.id);
  });
});
