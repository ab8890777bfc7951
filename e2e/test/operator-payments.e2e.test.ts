// Risk covered: the dashboard action "accept a held payment as paid", run through the operator CLI
// as a real process against the real checkout service: accepting what must not be accepted, or a
// payment of another account or mode.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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

async function acceptHeld(accountId: string, paymentId: string, mode: string): Promise<{ code: number; out: string }> {
  const { code, stdout, stderr } = await platform.operator('payments', 'accept-held', accountId, paymentId, '--mode', mode);
  return { code, out: code === 0 ? stdout : stderr };
}

async function heldPayment(outcome: 'underpaid' | 'paid'): Promise<string> {
  const created = await platform.request('POST', '/v1/checkout_sessions', {
    key: merchant.testKey,
    body: { amount: '10.00', currency: 'USD', description: 'Vase', customer_email: 'h@example.com' },
  });
  const { id } = (await created.json()) as { id: string };
  await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.testKey, body: {} });
  await platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome } });
  return id;
}

describe('operator payments accept-held', () => {
  it('turns an acceptable held payment into paid, merchant_received staying null', async () => {
    const id = await heldPayment('underpaid');
    const result = await acceptHeld(merchant.accountId, id, 'test');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toMatchObject({ id, status: 'paid', settlement: { merchant_received: null, value_coin: '5.000000' } });
    const read = (await (await platform.request('GET', `/v1/payments/${id}`, { key: merchant.testKey })).json()) as Record<string, unknown>;
    expect(read).toMatchObject({ status: 'paid', hold_reason: null });
    expect(read['paid_at']).toEqual(expect.any(Number));
  });

  it('refuses a payment that is not held, and one of the other mode', async () => {
    const paid = await heldPayment('paid');
    expect((await acceptHeld(merchant.accountId, paid, 'test')).code).toBe(1);
    const held = await heldPayment('underpaid');
    const otherMode = await acceptHeld(merchant.accountId, held, 'live');
    expect(otherMode.code).toBe(1);
    expect(JSON.parse(otherMode.out)).toMatchObject({ error: { code: 'not_found' } });
  });
});
