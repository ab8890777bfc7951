// Risk covered: an Overview that counts another account's or mode's payments, misses a payment past
// expiry the sweeper has not reached, sums money through floats, drops empty days from the chart, or
// loses a held payment waiting for the merchant, or counts a payment paid today on the day it was created — over real gRPC, settlement and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { Decimal } from '@hc/money';
import { CheckoutAdminService, CheckoutService } from '@hc/proto/checkout/v1';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';

const logger = createLogger('overview-test', { level: 'silent' });
const test: CallContext = { accountId: 'acct_V', livemode: false, requestId: 'req_v' };
const live: CallContext = { ...test, livemode: true };
const other: CallContext = { accountId: 'acct_W', livemode: false, requestId: 'req_w' };
const account = { payoutWallet: '0x3333333333333333333333333333333333333333', feeBps: 150 };
let stack: CheckoutStack;
let client: ServiceClient<typeof CheckoutService>;
let admin: ServiceClient<typeof CheckoutAdminService>;
const ids: Record<string, string> = {};

async function payment(ctx: CallContext, amount: string, currency: string, outcome?: 'paid' | 'underpaid' | 'failed'): Promise<string> {
  const { payment } = await client.createCheckoutSession(
    { amount, currency, description: 'Lamp', customerEmail: 'eve@example.com', account },
    ctx,
  );
  const id = payment!.id;
  if (outcome) {
    await client.startCheckoutSession({ id, account }, ctx);
    await client.simulatePayment({ id, outcome }, ctx);
  }
  return id;
}

beforeAll(async () => {
  stack = await startCheckoutStack(logger, { label: 'overview' });
  for (const { accountId } of [test, other]) await stack.putAccount({ id: accountId, payoutWallet: account.payoutWallet });
  client = createServiceClient(CheckoutService, stack.checkout.address);
  admin = createServiceClient(CheckoutAdminService, stack.checkout.address);
  // Two days ago: two paid payments in two currencies.
  stack.clock.set(new Date('2026-03-08T12:00:00Z'));
  ids.oldUsd = await payment(test, '10.10', 'USD', 'paid');
  ids.oldEur = await payment(test, '5.00', 'EUR', 'paid');
  // Yesterday: one left to expire (a day's lifetime, over at 08:00 today; the sweeper never runs here).
  stack.clock.set(new Date('2026-03-09T08:00:00Z'));
  ids.expired = await payment(test, '1.00', 'USD');
  // Started a minute before midnight, paid a minute after: today's money, not yesterday's.
  stack.clock.set(new Date('2026-03-09T23:59:30Z'));
  ids.overMidnight = await payment(test, '2.00', 'USD');
  await client.startCheckoutSession({ id: ids.overMidnight, account }, test);
  stack.clock.set(new Date('2026-03-10T00:00:30Z'));
  await client.simulatePayment({ id: ids.overMidnight, outcome: 'paid' }, test);
  // Today: one of each.
  stack.clock.set(new Date('2026-03-10T09:30:00Z'));
  ids.paid = await payment(test, '1.20', 'USD', 'paid');
  ids.held = await payment(test, '3.00', 'USD', 'underpaid');
  ids.failed = await payment(test, '4.00', 'USD', 'failed');
  ids.open = await payment(test, '6.00', 'USD');
  await payment(other, '99.00', 'USD', 'paid');
  await payment(other, '7.00', 'USD', 'underpaid');
  stack.clock.set(new Date('2026-03-10T10:00:00Z'));
});

afterAll(async () => {
  client.close();
  admin.close();
  await stack.stop();
});

describe('GetOverview', () => {
  it('counts today by status and sums the paid volume, a payment on the day it was paid', async () => {
    const overview = await admin.getOverview({ days: 1 }, test);
    expect(overview.counts).toMatchObject({ paid: 2n, held: 1n, failed: 1n, expired: 0n, open: 1n });
    expect(overview.volume.map(({ currency, amount }) => ({ currency, amount }))).toEqual([{ currency: 'USD', amount: '3.20' }]);
    expect(overview.periodStart).toBe(BigInt(Date.parse('2026-03-10T00:00:00Z') / 1000));
    expect(overview.periodEnd).toBe(BigInt(Date.parse('2026-03-11T00:00:00Z') / 1000));
    expect(overview.days.map((day) => day.date)).toEqual(['2026-03-10']);
  });

  it('covers every day of 7, empty days included, a payment past expiry as expired, volume per currency exact', async () => {
    const overview = await admin.getOverview({ days: 7 }, test);
    expect(overview.counts).toMatchObject({ paid: 4n, held: 1n, failed: 1n, expired: 1n, open: 1n });
    // 10.10 + 1.20 + 2.00 in binary floating point is 13.299999…; the sum must be exact.
    expect(overview.volume.map(({ currency, amount }) => ({ currency, amount }))).toEqual([
      { currency: 'EUR', amount: '5.00' },
      { currency: 'USD', amount: '13.30' },
    ]);
    expect(overview.days.map((day) => day.date)).toEqual([
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
    ]);
    const byDate = new Map(overview.days.map((day) => [day.date, day]));
    expect(byDate.get('2026-03-08')!.counts).toMatchObject({ paid: 2n, held: 0n });
    expect(byDate.get('2026-03-08')!.volume.map(({ currency, amount }) => `${amount} ${currency}`)).toEqual(['5.00 EUR', '10.10 USD']);
    // The payment created on the 9th and paid on the 10th is counted on the 10th only.
    expect(byDate.get('2026-03-09')!.counts).toMatchObject({ paid: 0n, expired: 1n, open: 0n, failed: 0n, held: 0n });
    expect(byDate.get('2026-03-09')!.volume).toEqual([]);
    expect(byDate.get('2026-03-10')!.counts).toMatchObject({ paid: 2n });
    expect(byDate.get('2026-03-10')!.volume.map(({ currency, amount }) => `${amount} ${currency}`)).toEqual(['3.20 USD']);
    expect(byDate.get('2026-03-07')!.counts).toMatchObject({ paid: 0n, held: 0n, failed: 0n, expired: 0n, open: 0n });
    expect(byDate.get('2026-03-07')!.volume).toEqual([]);
  });

  it('reports what reached the wallet as the sum of the paid payments’ merchant_received per coin', async () => {
    const overview = await admin.getOverview({ days: 7 }, test);
    const expected = new Map<string, Decimal>();
    for (const id of [ids.oldUsd, ids.oldEur, ids.overMidnight, ids.paid]) {
      const { payment } = await client.getCheckoutSession({ id: id! }, test);
      expect(payment!.status).toBe('paid');
      const coin = payment!.coin!;
      expected.set(coin, (expected.get(coin) ?? new Decimal(0)).plus(payment!.merchantReceived!));
    }
    expect(overview.received.length).toBeGreaterThan(0);
    for (const { currency, amount } of overview.received) expect(new Decimal(amount).equals(expected.get(currency)!)).toBe(true);
  });

  it('lists the held payment the merchant may accept, until accepted', async () => {
    const before = await admin.getOverview({ days: 1 }, test);
    expect(before.held.map((p) => p.id)).toEqual([ids.held]);
    expect(before.needsYouTotal).toBe(1n);
    await client.acceptHeldPayment({ id: ids.held! }, test);
    const after = await admin.getOverview({ days: 1 }, test);
    expect(after.held).toEqual([]);
    expect(after.counts).toMatchObject({ paid: 3n, held: 0n });
    expect(after.volume.map(({ amount }) => amount)).toEqual(['6.20']);
  });

  it('shows nothing of another mode', async () => {
    const overview = await admin.getOverview({ days: 30 }, live);
    expect(overview.counts).toMatchObject({ paid: 0n, held: 0n, failed: 0n, expired: 0n, open: 0n });
    expect(overview.volume).toEqual([]);
    expect(overview.held).toEqual([]);
    expect(overview.days).toHaveLength(30);
  });

  it('refuses a period outside 1 to 90 days with field days', async () => {
    for (const days of [0, 91, -1])
      await expect(admin.getOverview({ days }, test)).rejects.toMatchObject({ code: 'invalid_request', field: 'days' });
  });
});
