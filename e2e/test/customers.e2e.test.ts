// Risk covered: orders landing on the wrong customer, details lost or overwritten against the spec's
// rules, counters or `spent` wrong, another account's or mode's customer visible, list paging or
// filters wrong — through the gateway, with checkout publishing real events and the customers
// service consuming them over JetStream. Reads follow writes at once: the gateway's read-your-writes
// barrier (docs/adr/0011) makes them reflect every answered write, so no read here polls.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient } from '@hc/grpc';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { CustomersService } from '@hc/proto/customers/v1';
import { bodyOf, createSession, expectError, VALID_BODY, type Json } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

let platform: Platform;
let merchant: TestMerchant;

beforeAll(async () => {
  platform = await startPlatform();
  merchant = await platform.merchant();
});
afterAll(async () => {
  await platform.stop();
});

const CUSTOMER_FIELDS = [
  'id',
  'object',
  'livemode',
  'email',
  'name',
  'phone',
  'shipping_address',
  'billing_address',
  'store_accounts',
  'orders_count',
  'paid_orders_count',
  'spent',
  'created',
  'last_order_at',
  'erased',
];

let counter = 0;
/** A fresh address per test, so tests never meet each other's customers. */
const email = (name: string): string => `${name}.${Date.now()}.${(counter += 1)}@example.com`;

async function get(path: string, key = merchant.testKey): Promise<{ status: number; body: Json }> {
  const response = await platform.request('GET', path, { key });
  return { status: response.status, body: await bodyOf(response) };
}

/** The customer with this email (any case), read once right after the writes; `expected` must hold at once. */
async function customerByEmail(address: string, key = merchant.testKey, expected: (c: Json | null) => boolean = (c) => c !== null) {
  const { body } = await get(`/v1/customers?email=${encodeURIComponent(address)}`, key);
  if (!Array.isArray(body['data'])) throw new Error(JSON.stringify(body));
  const customer = ((body['data'] as Json[])[0] ?? null) as Json | null;
  expect({ customer, expected: expected(customer) }).toEqual({ customer, expected: true });
  return customer;
}

async function start(id: string, body: Json = {}, key = merchant.testKey): Promise<Json> {
  const response = await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key, body });
  expect(response.status).toBe(200);
  return bodyOf(response);
}

async function simulate(id: string, outcome: string, key = merchant.testKey): Promise<void> {
  const response = await platform.request('POST', `/v1/payments/${id}/simulate`, { key, body: { outcome } });
  expect(response.status).toBe(200);
}

describe('rule 1: one customer per email per mode per account, case-insensitive', () => {
  it('gathers orders made with the same address in any case on one customer', async () => {
    const address = email('ada');
    await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: address.toUpperCase() });
    await createSession(platform, merchant.testKey, { ...VALID_BODY, customer: { email: address } });
    const customer = await customerByEmail(address, merchant.testKey, (c) => c?.['orders_count'] === 2);
    expect(Object.keys(customer!).sort()).toEqual([...CUSTOMER_FIELDS].sort());
    expect(customer).toMatchObject({ object: 'customer', livemode: false, email: address, orders_count: 2, erased: false });
    expect(String(customer!['id'])).toMatch(/^cus_/);
    const { body } = await get(`/v1/customers?email=${encodeURIComponent(address)}`);
    expect(body['data']).toHaveLength(1);
  });

  it('keeps Test and Live customers apart, and each account its own', async () => {
    const address = email('both');
    const other = await platform.merchant();
    await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: address });
    await createSession(platform, merchant.liveKey, { ...VALID_BODY, customer_email: address });
    await createSession(platform, other.testKey, { ...VALID_BODY, customer_email: address });
    const test = await customerByEmail(address, merchant.testKey);
    const live = await customerByEmail(address, merchant.liveKey);
    const others = await customerByEmail(address, other.testKey);
    expect(new Set([test!['id'], live!['id'], others!['id']]).size).toBe(3);
    expect(live).toMatchObject({ livemode: true, orders_count: 1 });
    expect(test).toMatchObject({ livemode: false, orders_count: 1 });
    expect((await get(`/v1/customers/${String(test!['id'])}`, merchant.liveKey)).status).toBe(404);
    expect((await get(`/v1/customers/${String(test!['id'])}`, other.testKey)).status).toBe(404);
  });
});

describe('rule 2: made or found at creation, or at start for a session without email', () => {
  it('exists after a create with an email, before any start', async () => {
    const address = email('early');
    const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: address });
    const customer = await customerByEmail(address);
    expect(customer).toMatchObject({ orders_count: 1, paid_orders_count: 0, spent: {} });
    expect(customer!['last_order_at']).toBe(session['created']);
    expect(customer!['created']).toBe(session['created']);
  });

  it('appears at start for a session created without an email', async () => {
    const address = email('late');
    const session = await createSession(platform, merchant.testKey, VALID_BODY);
    const order = await get(`/v1/orders/${String(session['id'])}`);
    expect(order.body).toMatchObject({ object: 'order', customer_id: null, email: null, status: 'open' });
    expect((await get(`/v1/customers?email=${encodeURIComponent(address)}`)).body['data']).toEqual([]);
    await start(String(session['id']), { customer_email: address });
    const customer = await customerByEmail(address);
    expect(customer).toMatchObject({ orders_count: 1 });
    const moved = await get(`/v1/orders/${String(session['id'])}`);
    expect(moved.body['customer_id']).toBe(customer!['id']);
  });
});

describe("rules 3 and 4: each order's details replace the saved ones; left-out details stay", () => {
  it('replaces name, phone and addresses sent, keeps the others, and lists each store once', async () => {
    const address = email('grace');
    await createSession(platform, merchant.testKey, {
      ...VALID_BODY,
      customer: {
        email: address,
        name: 'Grace H',
        phone: '+1 555 0100',
        shipping_address: { line1: '1 Navy Yard', city: 'Arlington', country: 'us' },
        store_account: { platform: 'shopify', store_id: 'shop-1', store_name: 'Old name', customer_id: 'c-1' },
      },
    });
    await customerByEmail(address);
    await createSession(platform, merchant.testKey, {
      ...VALID_BODY,
      customer: {
        email: address,
        name: 'Grace Hopper',
        billing_address: { line1: '2 Main St', city: 'New York', postal_code: '10001', country: 'US' },
        store_account: { platform: 'shopify', store_id: 'shop-1', store_name: 'New name', customer_id: 'c-1' },
      },
    });
    const customer = await customerByEmail(address, merchant.testKey, (c) => c?.['orders_count'] === 2);
    expect(customer).toMatchObject({
      name: 'Grace Hopper',
      phone: '+1 555 0100',
      shipping_address: {
        name: null,
        line1: '1 Navy Yard',
        line2: null,
        city: 'Arlington',
        region: null,
        postal_code: null,
        country: 'US',
      },
      billing_address: { name: null, line1: '2 Main St', line2: null, city: 'New York', region: null, postal_code: '10001', country: 'US' },
      store_accounts: [{ platform: 'shopify', store_id: 'shop-1', store_name: 'New name', customer_id: 'c-1' }],
    });
  });

  it('keeps the details of an email-less session on the order and gives them to the customer at start', async () => {
    const address = email('quiet');
    const session = await createSession(platform, merchant.testKey, {
      ...VALID_BODY,
      customer: { name: 'Quiet Buyer', phone: '555-0199', store_account: { platform: 'woocommerce', store_id: 'w1' } },
    });
    const id = String(session['id']);
    const order = await get(`/v1/orders/${id}`);
    expect(order.body).toMatchObject({ customer_id: null, name: 'Quiet Buyer', phone: '555-0199' });
    await start(id, { customer_email: address });
    const customer = await customerByEmail(address);
    expect(customer).toMatchObject({
      name: 'Quiet Buyer',
      phone: '555-0199',
      store_accounts: [{ platform: 'woocommerce', store_id: 'w1', store_name: null, customer_id: null }],
    });
  });
});

describe('rule 5: a start with another email moves the order', () => {
  it('moves the order and its count to the customer with the new email', async () => {
    const first = email('first');
    const second = email('second');
    const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: first });
    const before = await customerByEmail(first);
    expect(before).toMatchObject({ orders_count: 1 });
    await start(String(session['id']), { customer_email: second });
    const after = await customerByEmail(second);
    const old = await customerByEmail(first, merchant.testKey, (c) => c?.['orders_count'] === 0);
    expect(after).toMatchObject({ orders_count: 1 });
    expect(old).toMatchObject({ id: before!['id'], orders_count: 0 });
    const orders = await get(`/v1/orders?customer_id=${String(after!['id'])}`);
    expect((orders.body['data'] as Json[]).map((o) => o['id'])).toEqual([session['id']]);
    expect((await get(`/v1/orders?customer_id=${String(old!['id'])}`)).body['data']).toEqual([]);
  });
});

describe('rule 5 with details', () => {
  it("takes the moved order's details and store account away from the first customer", async () => {
    const typo = email('bob.typo');
    const real = email('bob.real');
    const session = await createSession(platform, merchant.testKey, {
      ...VALID_BODY,
      customer: {
        email: typo,
        name: 'Bob Real',
        phone: '555-0100',
        store_account: { platform: 'shopify', store_id: 's9', customer_id: 'bob-9' },
      },
    });
    expect(await customerByEmail(typo)).toMatchObject({ name: 'Bob Real' });
    await start(String(session['id']), { customer_email: real });
    const moved = await customerByEmail(real);
    expect(moved).toMatchObject({
      name: 'Bob Real',
      phone: '555-0100',
      store_accounts: [{ platform: 'shopify', store_id: 's9', customer_id: 'bob-9' }],
    });
    const left = await customerByEmail(typo, merchant.testKey, (c) => c?.['orders_count'] === 0);
    expect(left).toMatchObject({ orders_count: 0, name: null, phone: null, shipping_address: null, store_accounts: [] });
  });
});

describe('rule 6: the API does not create, edit or delete customers', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('answers %s /v1/customers with 404 not_found', async (method) => {
    const address = email('ro');
    await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: address });
    const customer = await customerByEmail(address);
    for (const path of ['/v1/customers', `/v1/customers/${String(customer!['id'])}`]) {
      const response = await platform.request(method, path, { key: merchant.testKey, body: { email: 'x@example.com' } });
      await expectError(response, 404, 'not_found');
    }
  });

  it('never returns the private dashboard note', async () => {
    const address = email('noted');
    await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: address });
    const customer = await customerByEmail(address);
    const client = createServiceClient(CustomersService, platform.customers.address);
    const ctx = { accountId: merchant.accountId, livemode: false, requestId: 'req_note' };
    try {
      await client.setCustomerNote({ id: String(customer!['id']), note: 'VIP: prefers phone calls' }, ctx);
      expect((await client.getCustomerNote({ id: String(customer!['id']) }, ctx)).note).toBe('VIP: prefers phone calls');
    } finally {
      client.close();
    }
    const read = await get(`/v1/customers/${String(customer!['id'])}`);
    const listed = await get(`/v1/customers?email=${encodeURIComponent(address)}`);
    expect(JSON.stringify([read.body, listed.body])).not.toContain('VIP');
    expect(Object.keys(read.body).sort()).toEqual([...CUSTOMER_FIELDS].sort());
  });
});

describe('counters', () => {
  it('count paid orders and sum spent per currency, a held payment accepted as paid included', async () => {
    const address = email('spender');
    const paidUsd = await createSession(platform, merchant.testKey, {
      ...VALID_BODY,
      amount: '10.00',
      currency: 'USD',
      customer_email: address,
    });
    const paidEur = await createSession(platform, merchant.testKey, {
      ...VALID_BODY,
      amount: '40.50',
      currency: 'EUR',
      customer_email: address,
    });
    const held = await createSession(platform, merchant.testKey, {
      ...VALID_BODY,
      amount: '5.25',
      currency: 'USD',
      customer_email: address,
    });
    const failed = await createSession(platform, merchant.testKey, {
      ...VALID_BODY,
      amount: '99.00',
      currency: 'USD',
      customer_email: address,
    });
    await createSession(platform, merchant.testKey, { ...VALID_BODY, amount: '1.00', currency: 'USD', customer_email: address });
    for (const session of [paidUsd, paidEur, held, failed]) await start(String(session['id']));
    await simulate(String(paidUsd['id']), 'paid');
    await simulate(String(paidEur['id']), 'paid');
    await simulate(String(held['id']), 'underpaid');
    await simulate(String(failed['id']), 'failed');
    const beforeAccept = await customerByEmail(address, merchant.testKey, (c) => c?.['paid_orders_count'] === 2);
    expect(beforeAccept).toMatchObject({ orders_count: 5, paid_orders_count: 2, spent: { EUR: '40.50', USD: '10.00' } });

    // The dashboard action, as the operator CLI performs it (checkout gRPC).
    const checkout = createServiceClient(CheckoutService, platform.stack.checkout.address);
    try {
      await checkout.acceptHeldPayment(
        { id: String(held['id']) },
        { accountId: merchant.accountId, livemode: false, requestId: 'req_accept' },
      );
    } finally {
      checkout.close();
    }
    const afterAccept = await customerByEmail(address, merchant.testKey, (c) => c?.['paid_orders_count'] === 3);
    expect(afterAccept).toMatchObject({ orders_count: 5, paid_orders_count: 3, spent: { EUR: '40.50', USD: '15.25' } });
    const order = await get(`/v1/orders/${String(held['id'])}`);
    expect(order.body).toMatchObject({ status: 'paid', paid_at: expect.any(Number) });
  });
});
