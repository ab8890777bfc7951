// Risk covered: a merchant's Live payment, made through the public API and paid by an emulated buyer
// (the operator CLI's `emulator pay`, a real process), reaching the merchant wrongly: not paid, paid
// twice when the processor repeats itself, the money timeline leaking into the API or the events
// webhooks deliver (read through the events API: Live endpoints must be https), or a start that half-happens when the processor is down (502
// network_unavailable over HTTP). Real gateway, checkout, settlement, webhooks, emulator, PostgreSQL,
// NATS and HTTP.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bodyOf, createSession, eventually, expectError, type Json } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

/** Words only the operators' timeline uses: none may reach the merchant. */
const TIMELINE_WORDS = ['timeline', 'address_assigned', 'notice_received', 'transfer_seen_on_chain', 'forwarded_to'];

let platform: Platform;
let merchant: TestMerchant;

beforeAll(async () => {
  platform = await startPlatform({ webhooks: true });
  merchant = await platform.merchant();
});
afterAll(async () => {
  await platform.stop();
});

async function startedLivePayment(): Promise<string> {
  const session = await createSession(platform, merchant.liveKey, {
    amount: '21.55',
    currency: 'USD',
    description: 'Kettle',
    customer_email: 'kim@example.com',
  });
  const id = String(session['id']);
  expect((await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.liveKey, body: {} })).status).toBe(200);
  return id;
}

async function emulatorPay(id: string, ...options: string[]): Promise<Json> {
  const { code, stdout, stderr } = await platform.operator('emulator', 'pay', merchant.accountId, id, '--mode', 'live', ...options);
  if (code !== 0) throw new Error(`emulator pay exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as Json;
}

const readPayment = async (id: string): Promise<Json> =>
  bodyOf(await platform.request('GET', `/v1/payments/${id}`, { key: merchant.liveKey }));

/** The payment's events as the events API lists them: the bodies webhooks deliver, byte for byte. */
async function recordedEvents(id: string): Promise<{ type: string; livemode: boolean; raw: string }[]> {
  const list = await bodyOf(await platform.request('GET', '/v1/events?limit=100', { key: merchant.liveKey }));
  return (list['data'] as { type: string; livemode: boolean; data: { payment: Json } }[])
    .filter((e) => e.data.payment['id'] === id)
    .map((e) => ({ type: e.type, livemode: e.livemode, raw: JSON.stringify(e) }));
}

describe('a Live payment through the API, paid by an emulated buyer', () => {
  it('is paid once though the processor sends its notice twice: one payment.paid event, no timeline words', async () => {
    const id = await startedLivePayment();
    const paid = await emulatorPay(id, '--amount', '21.55', '--notice', 'duplicate');
    const payment = await eventually(
      () => readPayment(id),
      (p) => p['status'] !== 'open',
    );
    expect(payment).toMatchObject({
      livemode: true,
      status: 'paid',
      settlement: { coin: 'polygon_usdc', value_coin: '21.550000', merchant_received: '21.226750', txid_in: paid['txid_in'] },
    });
    // Both notices were answered before the CLI returned; the recorded events are what webhooks deliver.
    const events = await eventually(
      () => recordedEvents(id),
      (e) => e.some((x) => x.type === 'payment.paid'),
    );
    expect(events.map((e) => e.type).sort()).toEqual(['payment.paid', 'payment.started']);
    for (const event of events) expect(event.livemode).toBe(true);
    const merchantSees = JSON.stringify(payment) + events.map((e) => e.raw).join('');
    for (const word of TIMELINE_WORDS) expect(merchantSees).not.toContain(word);
  });

  it('is held, not acceptably, when the processor forwards the money to another wallet', async () => {
    const id = await startedLivePayment();
    await emulatorPay(id, '--amount', '21.55', '--forward-to', '0x9999999999999999999999999999999999999999');
    const payment = await eventually(
      () => readPayment(id),
      (p) => p['status'] !== 'open',
    );
    expect(payment).toMatchObject({ status: 'held', hold_acceptable: false, settlement: { merchant_received: null } });
    expect(String(payment['hold_reason'])).toContain('0x9999999999999999999999999999999999999999');
  });
});

describe('a canceled Live payment link paid anyway (issue 51)', () => {
  it('is held for review with the cancel as its reason, payment.held and never payment.paid', async () => {
    const created = await platform.request('POST', '/v1/payment_links', {
      key: merchant.liveKey,
      body: { amount: '21.55', currency: 'USD', description: 'Invoice 51', customer_email: 'kim@example.com' },
    });
    expect(created.status).toBe(201);
    const id = String((await bodyOf(created))['id']);
    expect((await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.liveKey, body: {} })).status).toBe(200);
    const cancel = await platform.request('POST', `/v1/payment_links/${id}/cancel`, { key: merchant.liveKey });
    expect(await bodyOf(cancel)).toMatchObject({ status: 'expired', canceled_at: expect.any(Number) });
    // The buyer pays the deposit address anyway, in full, and the processor forwards it as usual.
    await emulatorPay(id, '--amount', '21.55');
    const payment = await eventually(
      () => readPayment(id),
      (p) => p['status'] !== 'expired',
    );
    expect(payment).toMatchObject({ status: 'held', hold_acceptable: true, paid_at: null, settlement: { value_coin: '21.550000' } });
    expect(String(payment['hold_reason'])).toMatch(/^Money arrived after the payment link was canceled\./);
    const events = await eventually(
      () => recordedEvents(id),
      (e) => e.some((x) => x.type === 'payment.held'),
    );
    expect(events.map((e) => e.type).sort()).toEqual(['payment.canceled', 'payment.held', 'payment.started']);
  });
});

describe('a Live start while the processor is down', () => {
  it('answers 502 network_unavailable and leaves the session unstarted', async () => {
    const session = await createSession(platform, merchant.liveKey, {
      amount: '5.00',
      currency: 'USD',
      description: 'Cup',
      customer_email: 'cup@example.com',
    });
    const id = String(session['id']);
    await platform.stack.emulator.stop();
    await expectError(
      await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.liveKey, body: {} }),
      502,
      'network_unavailable',
    );
    const after = await bodyOf(await platform.request('GET', `/v1/checkout_sessions/${id}`, { key: merchant.liveKey }));
    expect(after).toMatchObject({ status: 'open', started_at: null });
  });
});
