// Risk covered: an erased buyer's personal data surviving anywhere the platform keeps it (every
// service's tables, every JetStream stream, the run's logs), the erased
// customer still found by email or blocking the address for good; and a restart of the customers
// service mid-burst losing or doubling orders or payments in the counters.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bodyOf, createSession, eventually, everyRowOf, everyStreamMessage, VALID_BODY, type Json } from './e2e-helpers.ts';
import { createServiceClient } from '@hc/grpc';
import { NotificationsService } from '@hc/proto/notifications/v1';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

let platform: Platform;
let merchant: TestMerchant;

beforeAll(async () => {
  platform = await startPlatform({ captureLogs: true, notifications: true });
  merchant = await platform.merchant();
  // Receipts for Test payments, so the erased buyer has a receipt in the mail log (docs/notifications.md).
  const notifications = createServiceClient(NotificationsService, platform.notifications!.address);
  await notifications.updateNotificationSettings(
    { testReceiptsEnabled: true },
    { accountId: merchant.accountId, livemode: false, requestId: 'req_e2e' },
  );
  notifications.close();
});
afterAll(async () => {
  await platform.stop();
});

async function get(path: string, key = merchant.testKey): Promise<Json> {
  return bodyOf(await platform.request('GET', path, { key }));
}

/** Read once, right after the writes (read-your-writes, docs/adr/0011): `expected` must hold at once. */
async function byEmail(address: string, expected: (c: Json | undefined) => boolean = (c) => c !== undefined): Promise<Json | undefined> {
  const customer = ((await get(`/v1/customers?email=${encodeURIComponent(address)}`))['data'] as Json[])[0];
  expect({ customer, expected: expected(customer) }).toEqual({ customer, expected: true });
  return customer;
}

/** The CLI's exit code and what it printed (stdout on success, stderr on refusal). */
async function operator(...args: string[]): Promise<{ code: number; out: string }> {
  const { code, stdout, stderr } = await platform.operator(...args);
  return { code, out: code === 0 ? stdout : stderr };
}

describe('erasing a customer (operator CLI)', () => {
  it('removes name, email, phone and addresses from every table, stream and log; the customer keeps its id and orders', async () => {
    const address = 'Erase.Me@Example.com';
    const personal = ['erase.me@example.com', 'Erin Erasable', '+1 555 0142', '77 Forget Lane', 'Oblivion Park', 'store-cust-9'];
    const details = {
      email: address,
      name: 'Erin Erasable',
      phone: '+1 555 0142',
      shipping_address: { line1: '77 Forget Lane', city: 'Oblivion Park', country: 'US' },
      billing_address: { line1: '77 Forget Lane', country: 'US' },
      store_account: { platform: 'shopify', store_id: 'shop-e', customer_id: 'store-cust-9' },
    };
    const paid = await createSession(platform, merchant.testKey, { ...VALID_BODY, customer: details });
    const open = await createSession(platform, merchant.testKey, { ...VALID_BODY, customer: details });
    await platform.request('POST', `/v1/checkout_sessions/${String(paid['id'])}/start`, { key: merchant.testKey, body: {} });
    await platform.request('POST', `/v1/payments/${String(paid['id'])}/simulate`, { key: merchant.testKey, body: { outcome: 'paid' } });
    const customer = await byEmail(address, (c) => c?.['paid_orders_count'] === 1);
    // The buyer got their receipt (over SMTP), so the mail log holds their address and name.
    const sink = platform.notifications!.sink;
    const receipts = await eventually(
      async () => sink.mails.filter((m) => m.envelopeTo.includes('erase.me@example.com')),
      (found) => found.length === 1,
    );
    expect(receipts).toHaveLength(1);
    const id = String(customer!['id']);
    await operator('customers', 'note', merchant.accountId, id, '--mode', 'test', '--set', 'Asked to be forgotten');

    const result = await operator('customers', 'erase', merchant.accountId, id, '--mode', 'test');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toMatchObject({ id, erased: true, email: null, name: null, phone: null, shipping_address: null });

    // The API: same id, erased, counters kept, contact details null; orders keep customer_id.
    expect(await get(`/v1/customers/${id}`)).toMatchObject({
      id,
      erased: true,
      email: null,
      name: null,
      phone: null,
      shipping_address: null,
      billing_address: null,
      orders_count: 2,
      paid_orders_count: 1,
      spent: { USD: '25.00' },
    });
    for (const order of [paid, open]) {
      expect(await get(`/v1/orders/${String(order['id'])}`)).toMatchObject({ customer_id: id, email: null, name: null, phone: null });
    }
    // Checkout, through the erasure event, before the CLI was answered: the payments' customer_email is null.
    const payments = await Promise.all([paid, open].map((s) => get(`/v1/payments/${String(s['id'])}`)));
    expect(payments.map((p) => p['customer_email'])).toEqual([null, null]);
    // Every row of every store of both contexts holding it.
    for (const databaseUrl of [platform.customers.databaseUrl, platform.stack.checkoutDatabaseUrl, platform.notifications!.databaseUrl]) {
      const rows = await everyRowOf(databaseUrl);
      for (const value of personal) expect(rows.toLowerCase()).not.toContain(value.toLowerCase());
    }
    // Every message of every stream of the run: the payments' messages leave the bus once the
    // customers consumer has processed them (ADR 0017); the erasure event itself carries ids only.
    const mentions = (text: string) => personal.filter((value) => text.toLowerCase().includes(value.toLowerCase()));
    const bus = await eventually(
      () => everyStreamMessage(platform.stack.natsUrl, platform.stack.natsPrefix),
      (text) => mentions(text).length === 0,
    );
    expect(mentions(bus)).toEqual([]);
    expect(bus).toContain(`${id}.erased`);
    // And the log of every service of the run, at every level, never had them.
    const logs = platform.logs();
    expect(logs).toContain('customer erasure');
    expect(mentions(logs)).toEqual([]);
    // Listing by that email finds nothing; the same email later starts a new customer.
    expect((await get(`/v1/customers?email=${encodeURIComponent(address)}`))['data']).toEqual([]);
    await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: address });
    const fresh = await byEmail(address);
    expect(fresh).toMatchObject({ email: 'erase.me@example.com', erased: false, orders_count: 1 });
    expect(fresh!['id']).not.toBe(id);
  });

  it('refuses an unknown customer or one of the other mode (exit 1, not_found)', async () => {
    const address = 'kept@example.com';
    await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: address });
    const customer = await byEmail(address);
    const other = await operator('customers', 'erase', merchant.accountId, String(customer!['id']), '--mode', 'live');
    expect(other.code).toBe(1);
    expect(JSON.parse(other.out)).toMatchObject({ error: { code: 'not_found' } });
    expect((await operator('customers', 'erase', merchant.accountId, 'cus_nope', '--mode', 'test')).code).toBe(1);
    expect(await get(`/v1/customers/${String(customer!['id'])}`)).toMatchObject({ erased: false, email: address });
  });
});

describe('a restart of the customers service in the middle of a burst of orders', () => {
  it('loses and doubles nothing: counters are exact afterwards', async () => {
    const address = 'burst@example.com';
    const orders = 40;
    const burst = (async () => {
      for (let i = 0; i < orders; i += 1) {
        const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, amount: '1.25', customer_email: address });
        const id = String(session['id']);
        await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.testKey, body: {} });
        if (i % 2 === 0)
          await platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome: 'paid' } });
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await platform.customers.restart();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await platform.customers.restart();
    await burst;
    const customer = await byEmail(address, (c) => c?.['orders_count'] === orders && c['paid_orders_count'] === orders / 2);
    expect(customer).toMatchObject({ orders_count: 40, paid_orders_count: 20, spent: { USD: '25.00' } });
    // And it stays exact: nothing arrives twice later.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await byEmail(address)).toMatchObject({ orders_count: 40, paid_orders_count: 20, spent: { USD: '25.00' } });
    expect((await get(`/v1/orders?customer_id=${String(customer!['id'])}&limit=100`))['data']).toHaveLength(40);
    // 120 requests and two restarts: on a loaded shared machine this takes longer than jest's default 30 s.
  }, 90_000);
});
