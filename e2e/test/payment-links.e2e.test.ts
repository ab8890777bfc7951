// Risk covered: payment links made and canceled by the operator (the dashboard's path, never the
// merchant key) that the API, the start operation and the webhooks do not reflect: a canceled link
// still payable, a cancel without payment.canceled, link fields missing from the webhook, a cancel
// after a provider was reached, another account's link canceled, bad input that writes a link.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createServiceClient, type PublicCallContext } from '@hc/grpc';
import { HostedCheckoutService } from '@hc/proto/checkout/v1';
import { bodyOf, eventually, expectError, type Json } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

// The operator tests run the CLI as a process per step (a few seconds each on a machine running the
// whole suite on two workers): a minute and a half per test, not the suite's 30 s.
jest.setTimeout(90_000);

interface Delivery {
  type: string;
  data: { payment: Json | null };
}

let platform: Platform;
let merchant: TestMerchant;
let stranger: TestMerchant;
let server: Server;
const delivered: Delivery[] = [];

beforeAll(async () => {
  platform = await startPlatform({ webhooks: true });
  merchant = await platform.merchant();
  stranger = await platform.merchant();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      delivered.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Delivery);
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  await cli('webhooks', 'endpoints', 'add', merchant.accountId, '--mode', 'test', '--url', url);
});
afterAll(async () => {
  server.close();
  await platform.stop();
});

async function cli(...args: string[]): Promise<Json & Json[]> {
  const { code, stdout, stderr } = await platform.operator(...args);
  if (code !== 0) throw new Error(`operator ${args.join(' ')} exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as Json & Json[];
}

async function refused(...args: string[]): Promise<{ code: number; error: Json }> {
  const { code, stderr } = await platform.operator(...args);
  return { code, error: (JSON.parse(stderr) as { error: Json }).error };
}

const ofPayment = (id: string, type: string) =>
  eventually(
    async () => delivered.find((d) => d.data.payment?.['id'] === id && d.type === type),
    (d) => d !== undefined,
  );

const LINK = [
  '--amount',
  '19.9',
  '--currency',
  'usd',
  '--description',
  'Repair',
  '--customer-name',
  'Grace Hopper',
  '--memo',
  'Invoice 12',
];

describe('operator links', () => {
  it('create → start → simulated paid: a payment like any other, with the link fields on its webhook', async () => {
    const link = await cli(
      'links',
      'create',
      merchant.accountId,
      '--mode',
      'test',
      ...LINK,
      '--email',
      'grace@example.com',
      '--reference',
      'INV-12',
    );
    expect(link).toMatchObject({
      object: 'payment',
      status: 'open',
      amount: '19.90',
      currency: 'USD',
      customer_name: 'Grace Hopper',
      memo: 'Invoice 12',
    });
    const id = String(link['id']);
    expect(id).toMatch(/^pay_/);
    expect(String(link['url'])).toMatch(new RegExp(`/pay/${id}$`));
    expect(String(link['tracking_url'])).toMatch(new RegExp(`/track/${id}$`));
    expect(Number(link['expires_at']) - Number(link['created'])).toBe(7 * 24 * 3600);
    expect((await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.testKey, body: {} })).status).toBe(200);
    const paid = await bodyOf(
      await platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome: 'paid' } }),
    );
    expect(paid).toMatchObject({ status: 'paid', canceled_at: null, reference: 'INV-12' });
    const hook = await ofPayment(id, 'payment.paid');
    expect(hook!.data.payment).toMatchObject({
      source: 'payment_link',
      customerName: 'Grace Hopper',
      memo: 'Invoice 12',
      trackingUrl: link['tracking_url'],
      checkoutId: null,
      canceledAt: null,
      reference: 'INV-12',
    });
    const listed = await cli('links', 'list', merchant.accountId, '--mode', 'test');
    expect(listed.map((l) => l['id'])).toContain(id);
  });

  it('cancel → API expired with canceled_at, start answers 410 canceled, payment.canceled delivered', async () => {
    const link = await cli('links', 'create', merchant.accountId, '--mode', 'test', ...LINK, '--lifetime', '2h');
    const id = String(link['id']);
    expect(Number(link['expires_at']) - Number(link['created'])).toBe(2 * 3600);
    const canceled = await cli('links', 'cancel', merchant.accountId, id, '--mode', 'test');
    expect(canceled).toMatchObject({ id, status: 'expired', canceled_at: expect.any(Number) });
    const read = await bodyOf(await platform.request('GET', `/v1/payments/${id}`, { key: merchant.testKey }));
    expect(read).toMatchObject({ status: 'expired', canceled_at: canceled['canceled_at'] });
    await expectError(
      await platform.request('POST', `/v1/checkout_sessions/${id}/start`, {
        key: merchant.testKey,
        body: { customer_email: 'g@example.com' },
      }),
      410,
      'canceled',
    );
    const hook = await ofPayment(id, 'payment.canceled');
    expect(hook!.data.payment).toMatchObject({ status: 'expired', source: 'payment_link', canceledAt: expect.any(Number) });
  });

  it('cancels a link a buyer took to a provider but nobody paid; refuses a finished one (not_cancelable) and another account’s link (not_found)', async () => {
    const id = String((await cli('links', 'create', merchant.accountId, '--mode', 'test', ...LINK, '--email', 'g@example.com'))['id']);
    await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.testKey, body: {} });
    await platform.stack.checkout.deps.payments.change({ accountId: merchant.accountId, livemode: false }, id, new Date(), () => ({
      patch: { status: 'pending', provider: 'cardrail' },
      event: null,
    }));
    expect(await cli('links', 'cancel', merchant.accountId, id, '--mode', 'test')).toMatchObject({
      status: 'expired',
      canceled_at: expect.any(Number),
    });
    const finished = String(
      (await cli('links', 'create', merchant.accountId, '--mode', 'test', ...LINK, '--email', 'g@example.com'))['id'],
    );
    await platform.request('POST', `/v1/checkout_sessions/${finished}/start`, { key: merchant.testKey, body: {} });
    await platform.request('POST', `/v1/payments/${finished}/simulate`, { key: merchant.testKey, body: { outcome: 'failed' } });
    expect(await refused('links', 'cancel', merchant.accountId, finished, '--mode', 'test')).toMatchObject({
      code: 1,
      error: { code: 'not_cancelable' },
    });
    const fresh = String((await cli('links', 'create', merchant.accountId, '--mode', 'test', ...LINK))['id']);
    expect(await refused('links', 'cancel', stranger.accountId, fresh, '--mode', 'test')).toMatchObject({
      code: 1,
      error: { code: 'not_found' },
    });
    expect(await refused('links', 'cancel', merchant.accountId, fresh, '--mode', 'live')).toMatchObject({
      code: 1,
      error: { code: 'not_found' },
    });
    expect((await bodyOf(await platform.request('GET', `/v1/payments/${fresh}`, { key: merchant.testKey })))['status']).toBe('open');
  });

  it('bad input: the API codes with field, exit 1, nothing written', async () => {
    const before = (await cli('links', 'list', merchant.accountId, '--mode', 'test')).length;
    const base = ['links', 'create', merchant.accountId, '--mode', 'test', '--currency', 'USD', '--description', 'x'];
    expect(await refused(...base, '--amount', '0.5')).toMatchObject({ code: 1, error: { code: 'invalid_amount', field: 'amount' } });
    expect(await refused(...base, '--amount', '5', '--lifetime', '120d')).toMatchObject({
      code: 1,
      error: { code: 'invalid_lifetime', field: 'lifetime' },
    });
    expect((await platform.operator(...base.slice(0, 5))).code).toBe(2);
    expect((await cli('links', 'list', merchant.accountId, '--mode', 'test')).length).toBe(before);
  });
});

describe('operator checkouts', () => {
  it('create (pricing table) → show → list → archive; a visit is a payment the API lists with its own id; bad plans refused', async () => {
    const made = await cli(
      'checkouts',
      'create',
      merchant.accountId,
      '--mode',
      'test',
      '--kind',
      'pricing_table',
      '--description',
      'Hosting',
      '--currency',
      'EUR',
      '--plans',
      'Basic:9,Pro:29',
    );
    const id = String(made['id']);
    expect(made).toMatchObject({
      object: 'checkout',
      kind: 'pricing_table',
      archived_at: null,
      plans: [
        { label: 'Basic', amount: '9.00' },
        { label: 'Pro', amount: '29.00' },
      ],
    });
    expect(String(made['url'])).toMatch(new RegExp(`/c/${id}$`));
    expect(await cli('checkouts', 'show', merchant.accountId, id, '--mode', 'test')).toMatchObject({ id });
    expect((await cli('checkouts', 'list', merchant.accountId, '--mode', 'test')).map((c) => c['id'])).toContain(id);
    // A buyer's visit, as the pages service makes it (its browser walk is in services/pages/test).
    const hosted = createServiceClient<typeof HostedCheckoutService, PublicCallContext>(
      HostedCheckoutService,
      platform.stack.checkout.address,
    );
    const { paymentId } = await hosted.payCheckout({ id, plan: 1 }, { requestId: 'req_visit' }).finally(() => hosted.close());
    expect(await bodyOf(await platform.request('GET', `/v1/payments/${paymentId}`, { key: merchant.testKey }))).toMatchObject({
      amount: '29.00',
      currency: 'EUR',
      status: 'open',
    });
    const archived = await cli('checkouts', 'archive', merchant.accountId, id, '--mode', 'test');
    expect(archived['archived_at']).toEqual(expect.any(Number));
    expect(await refused('checkouts', 'show', stranger.accountId, id, '--mode', 'test')).toMatchObject({
      code: 1,
      error: { code: 'not_found' },
    });
    const bad = [
      'checkouts',
      'create',
      merchant.accountId,
      '--mode',
      'test',
      '--kind',
      'pricing_table',
      '--description',
      'x',
      '--currency',
      'EUR',
    ];
    expect(await refused(...bad, '--plans', 'Solo:9')).toMatchObject({ code: 1, error: { code: 'invalid_plans', field: 'plans' } });
    expect(await refused(...bad, '--plans', 'A:9,B:nine')).toMatchObject({ code: 1, error: { code: 'invalid_amount' } });
  });
});
