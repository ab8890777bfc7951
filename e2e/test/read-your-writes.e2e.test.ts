// Risk covered: a customers or orders read that silently misses a write the merchant was already
// answered (create, start, simulate, erase), on any gateway replica, or one that answers stale data
// instead of the retryable catching_up while the customers projection is behind (docs/adr/0011).
// Every read here follows its write at once: no sleep, no polling.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { startGateway, type RunningGateway } from '@hc/gateway';
import { bodyOf, createSession, everyRowOf, expectError, VALID_BODY, type Json } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

let platform: Platform;
let merchant: TestMerchant;
let receiver: Server;

beforeAll(async () => {
  platform = await startPlatform({ webhooks: true });
  merchant = await platform.merchant();
  // The merchant's webhook endpoint, so the webhooks context logs deliveries carrying the buyer's email.
  receiver = createServer((_req, res) => res.writeHead(200).end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  expect((await platform.operator('webhooks', 'endpoints', 'add', merchant.accountId, '--mode', 'test', '--url', url)).code).toBe(0);
});
afterAll(async () => {
  await platform.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

async function get(path: string, key = merchant.testKey, base = platform.url): Promise<Json> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const body = await bodyOf(response);
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  return body;
}

async function byEmail(address: string, key = merchant.testKey, base = platform.url): Promise<Json | undefined> {
  return ((await get(`/v1/customers?email=${encodeURIComponent(address)}`, key, base))['data'] as Json[])[0];
}

async function post(path: string, body: Json, key = merchant.testKey): Promise<Json> {
  const response = await platform.request('POST', path, { key, body });
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  return bodyOf(response);
}

const start = (id: unknown, body: Json = {}) => post(`/v1/checkout_sessions/${String(id)}/start`, body);
const simulatePaid = (id: unknown) => post(`/v1/payments/${String(id)}/simulate`, { outcome: 'paid' });

describe('customers and orders reflect every answered write at once', () => {
  it('finds the customer by email right after the create that made it', async () => {
    const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: 'first@example.com' });
    const customer = await byEmail('first@example.com');
    expect(customer).toMatchObject({ email: 'first@example.com', orders_count: 1 });
    expect(await get(`/v1/orders/${String(session['id'])}`)).toMatchObject({ customer_id: customer!['id'] });
  });

  it('counts a second order made with the address in another letter case at once', async () => {
    await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: 'twice@example.com' });
    await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: 'TWICE@Example.COM' });
    expect(await byEmail('Twice@example.com')).toMatchObject({ email: 'twice@example.com', orders_count: 2 });
  });

  it('shows paid_orders_count and spent per currency right after a simulated payment', async () => {
    const usd = await createSession(platform, merchant.testKey, { ...VALID_BODY, amount: '12.50', customer_email: 'payer@example.com' });
    const eur = await createSession(platform, merchant.testKey, {
      ...VALID_BODY,
      amount: '7.25',
      currency: 'EUR',
      customer_email: 'payer@example.com',
    });
    for (const session of [usd, eur]) {
      await start(session['id']);
      await simulatePaid(session['id']);
    }
    expect(await byEmail('payer@example.com')).toMatchObject({
      orders_count: 2,
      paid_orders_count: 2,
      spent: { USD: '12.50', EUR: '7.25' },
    });
  });

  it('moves the order to the new email’s customer right after a start with a different email', async () => {
    const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: 'before@example.com' });
    const before = await byEmail('before@example.com');
    await start(session['id'], { customer_email: 'after@example.com' });
    const after = await byEmail('after@example.com');
    expect(after).toMatchObject({ orders_count: 1 });
    expect(await get(`/v1/customers/${String(before!['id'])}`)).toMatchObject({ orders_count: 0 });
    expect(await get(`/v1/orders/${String(session['id'])}`)).toMatchObject({ customer_id: after!['id'], email: 'after@example.com' });
  });

  it('gives a session created without an email its customer right after the start', async () => {
    const session = await createSession(platform, merchant.testKey, VALID_BODY);
    expect(await get(`/v1/orders/${String(session['id'])}`)).toMatchObject({ customer_id: null });
    await start(session['id'], { customer_email: 'late@example.com' });
    const customer = await byEmail('late@example.com');
    expect(customer).toMatchObject({ orders_count: 1 });
    expect(await get(`/v1/orders/${String(session['id'])}`)).toMatchObject({ customer_id: customer!['id'] });
  });

  it('keeps a Live and a Test customer for one email, each visible at once in its own mode', async () => {
    await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: 'both@example.com' });
    await createSession(platform, merchant.liveKey, { ...VALID_BODY, customer_email: 'both@example.com' });
    const test = await byEmail('both@example.com');
    const live = await byEmail('both@example.com', merchant.liveKey);
    expect(test).toMatchObject({ livemode: false, orders_count: 1 });
    expect(live).toMatchObject({ livemode: true, orders_count: 1 });
    expect(test!['id']).not.toBe(live!['id']);
  });

  it('answers 400 invalid_cursor for another account’s customer right after that account’s create', async () => {
    const other = await platform.merchant();
    await createSession(platform, other.testKey, { ...VALID_BODY, customer_email: 'foreign@example.com' });
    const foreign = await byEmail('foreign@example.com', other.testKey);
    expect(foreign).toBeDefined();
    const response = await platform.request('GET', `/v1/customers?starting_after=${String(foreign!['id'])}`, { key: merchant.testKey });
    await expectError(response, 400, 'invalid_cursor', 'starting_after');
  });

  it('holds across gateway replicas: a write answered by one is read through another', async () => {
    const second: RunningGateway = await startGateway(platform.gatewayConfig, createLogger('e2e', { level: 'silent' }));
    try {
      const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: 'replica@example.com' });
      await start(session['id']);
      await simulatePaid(session['id']);
      expect(await byEmail('replica@example.com', merchant.testKey, second.url)).toMatchObject({ paid_orders_count: 1 });
    } finally {
      await second.stop();
    }
  });

  it('holds after a restart of the customers service', async () => {
    await platform.customers.restart();
    await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: 'restart@example.com' });
    expect(await byEmail('restart@example.com')).toMatchObject({ orders_count: 1 });
  });
});

describe('the operator’s erase is answered only once every context has applied it', () => {
  it('erases, nulls the payments’ customer_email, scrubs webhooks, frees the email for a new customer', async () => {
    const address = 'forget.me@example.com';
    const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: address });
    await start(session['id']);
    await simulatePaid(session['id']);
    const id = String((await byEmail(address))!['id']);

    const erased = await platform.operator('customers', 'erase', merchant.accountId, id, '--mode', 'test');
    expect(erased.code).toBe(0);
    expect(await get(`/v1/customers/${id}`)).toMatchObject({ id, erased: true, email: null, paid_orders_count: 1 });
    expect(await get(`/v1/payments/${String(session['id'])}`)).toMatchObject({ customer_email: null });
    expect((await everyRowOf(platform.webhooks!.databaseUrl)).toLowerCase()).not.toContain(address);
    expect(await byEmail(address)).toBeUndefined();

    await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: address });
    const fresh = await byEmail(address);
    expect(fresh).toMatchObject({ email: address, erased: false, orders_count: 1 });
    expect(fresh!['id']).not.toBe(id);
  });

  it('notes a customer made by a create just answered', async () => {
    await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: 'noted@example.com' });
    const id = String((await byEmail('noted@example.com'))!['id']);
    const noted = await platform.operator('customers', 'note', merchant.accountId, id, '--mode', 'test', '--set', 'VIP');
    expect({ code: noted.code, out: JSON.parse(noted.stdout) as unknown }).toEqual({ code: 0, out: { customer: id, note: 'VIP' } });
  });
});

describe('while the customers projection is stopped', () => {
  it('waits, answers 503 catching_up with Retry-After instead of stale data, and succeeds once it runs again', async () => {
    await platform.customers.pauseConsumer();
    let resumed = false;
    try {
      const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: 'paused@example.com' });
      const asked = Date.now();
      const response = await platform.request('GET', '/v1/customers?email=paused%40example.com', { key: merchant.testKey });
      const waitedMs = Date.now() - asked;
      expect(response.headers.get('retry-after')).toBe('1');
      await expectError(response, 503, 'catching_up');
      // It waited for the bound (CUSTOMERS_READ_WAIT_MS) before giving up, rather than failing fast.
      expect(waitedMs).toBeGreaterThanOrEqual(platform.gatewayConfig.CUSTOMERS_READ_WAIT_MS - 50);
      await expectError(
        await platform.request('GET', `/v1/orders/${String(session['id'])}`, { key: merchant.testKey }),
        503,
        'catching_up',
      );

      await platform.customers.resumeConsumer();
      resumed = true;
      expect(await byEmail('paused@example.com')).toMatchObject({ orders_count: 1 });
      expect(await get(`/v1/orders/${String(session['id'])}`)).toMatchObject({ status: 'open' });
    } finally {
      if (!resumed) await platform.customers.resumeConsumer();
    }
  });
});
