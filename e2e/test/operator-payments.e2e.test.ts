// Risk covered: the dashboard actions "accept a held payment as paid" and "see a payment's timeline",
// run through the operator CLI as a real process against the real services: accepting what must not
// be accepted, a timeline missing what happened, or another account's or mode's payment shown.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { eventually } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

// Each test drives several operator CLI processes and a Live settlement; on a shared CI machine that
// exceeded 30 s.
jest.setTimeout(90_000);

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

interface TimelineLine {
  source: string;
  kind: string;
  at: string;
  detail: Record<string, unknown>;
}

async function timeline(accountId: string, paymentId: string, mode: string): Promise<{ code: number; lines: TimelineLine[]; err: string }> {
  const { code, stdout, stderr } = await platform.operator('payments', 'timeline', accountId, paymentId, '--mode', mode);
  return { code, lines: code === 0 ? (JSON.parse(stdout) as TimelineLine[]) : [], err: stderr };
}

describe('operator payments timeline', () => {
  it("shows a Live payment's money: address assigned, the notice, forwarding and the verdict, oldest first", async () => {
    const created = await platform.request('POST', '/v1/checkout_sessions', {
      key: merchant.liveKey,
      body: { amount: '10.00', currency: 'USD', description: 'Lamp', customer_email: 'l@example.com' },
    });
    const { id } = (await created.json()) as { id: string };
    await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.liveKey, body: {} });
    const paid = await platform.operator('emulator', 'pay', merchant.accountId, id, '--mode', 'live', '--amount', '10');
    expect(paid.code).toBe(0);
    const lines = await eventually(
      async () => (await timeline(merchant.accountId, id, 'live')).lines,
      (l) => l.some((x) => x.kind === 'verdict'),
    );
    expect(lines.map((l) => `${l.source}:${l.kind}`)).toEqual([
      'checkout:created',
      'checkout:started',
      'settlement:address_assigned',
      // The processor asked where to forward before it moved the money (docs/adr/0081).
      'settlement:forward_target_decided',
      'settlement:notice_received',
      'settlement:forwarded',
      'settlement:verdict',
    ]);
    expect(lines.find((l) => l.kind === 'verdict')!.detail).toMatchObject({ kind: 'paid', value_coin: '10.000000' });
    for (const line of lines) expect(new Date(line.at).toISOString()).toBe(line.at);
  });

  it('shows the merchant accepting a held payment, and is not_found for another account or mode', async () => {
    const id = await heldPayment('underpaid');
    expect((await acceptHeld(merchant.accountId, id, 'test')).code).toBe(0);
    const { code, lines } = await timeline(merchant.accountId, id, 'test');
    expect(code).toBe(0);
    expect(lines.map((l) => l.kind)).toEqual(expect.arrayContaining(['created', 'started', 'verdict', 'accepted_by_merchant']));
    expect(lines.at(-1)).toMatchObject({ source: 'checkout', kind: 'accepted_by_merchant' });
    const other = await platform.merchant();
    const foreign = await timeline(other.accountId, id, 'test');
    expect(foreign.code).toBe(1);
    expect(JSON.parse(foreign.err)).toMatchObject({ error: { code: 'not_found' } });
    expect((await timeline(merchant.accountId, id, 'live')).code).toBe(1);
  });
});
