// Risk covered: the settlement service, over real gRPC and PostgreSQL, locking a payment twice or
// differently on a repeat, leaking a lock across accounts or modes, or reaching more than one verdict
// (or a wrong one) when a Test payment is simulated, also under concurrent calls.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { newId } from '@hc/ids';
import { createLogger } from '@hc/logging';
import { SettlementService, SimulatedOutcome, VerdictKind } from '@hc/proto/settlement/v1';
import { loadEmulatorConfig, startEmulator, type RunningEmulator } from '@hc/emulator';
import { createTestDatabase, TestClock, testNatsPrefix, testNatsUrl, type TestDatabase } from '@hc/test-kit';
import { loadSettlementConfig, SETTLEMENT_MIGRATIONS_DIR, startSettlementService, type RunningSettlementService } from '../src/index.ts';

const clock = new TestClock(new Date('2026-03-01T12:00:00.000Z'));
const test: CallContext = { accountId: 'acct_A', livemode: false, requestId: 'req_t' };
const live: CallContext = { ...test, livemode: true };
const otherAccount: CallContext = { ...test, accountId: 'acct_B' };
const WALLET = '0x1111111111111111111111111111111111111111';
const TXID = /^0x[0-9a-f]{64}$/;
let db: TestDatabase;
let service: RunningSettlementService;
let emulator: RunningEmulator;
let client: ServiceClient<typeof SettlementService>;

beforeAll(async () => {
  db = await createTestDatabase('settlement', SETTLEMENT_MIGRATIONS_DIR);
  // Through the config loader, so the service runs on the defaults a fresh machine gets.
  const logger = createLogger('settlement-test', { level: 'silent' });
  emulator = await startEmulator(loadEmulatorConfig({ EMULATOR_PORT: '0', LOG_LEVEL: 'silent' }), logger);
  const config = loadSettlementConfig({
    // One machine with the emulator: its published notice secret (docs/adr/0016).
    SETTLEMENT_LOCAL_MODE: 'true',
    SETTLEMENT_DATABASE_URL: db.url,
    SETTLEMENT_GRPC_ADDRESS: '127.0.0.1:0',
    SETTLEMENT_NOTICES_ADDRESS: '127.0.0.1:0',
    PROCESSOR_URL: emulator.url,
    NATS_URL: testNatsUrl(),
    NATS_SUBJECT_PREFIX: testNatsPrefix('settlement'),
    LOG_LEVEL: 'silent',
  });
  service = await startSettlementService(config, logger, { now: clock.now });
  client = createServiceClient(SettlementService, service.address);
});

afterAll(async () => {
  client.close();
  await service.stop();
  await emulator.stop();
  await db.drop();
});

/** A lock request for a new payment: 10.00 EUR (10.80 USD at the default rate), 1.5% fee. */
function order(change: { amount?: string; currency?: string; payoutWallet?: string; feeBps?: number } = {}) {
  return { paymentId: newId('payment'), amount: '10.00', currency: 'EUR', payoutWallet: WALLET, feeBps: 150, ...change };
}

async function started(ctx: CallContext = test, change: Parameters<typeof order>[0] = {}): Promise<string> {
  const request = order(change);
  await client.lockSettlement(request, ctx);
  return request.paymentId;
}

describe('LockSettlement', () => {
  it('locks the fee and the USD value at the configured rate, with no deposit address in Test mode', async () => {
    const request = order();
    const { lock } = await client.lockSettlement(request, test);
    expect(lock).toMatchObject({
      paymentId: request.paymentId,
      payoutWallet: WALLET,
      feeBps: 150,
      amount: '10.00',
      currency: 'EUR',
      usdRate: '1.08',
      usdValue: '10.80',
      lockedAt: BigInt(clock.now().getTime()),
    });
    expect(lock!.depositAddress).toBeUndefined();
  });

  it('rounds the USD value half-up to cents', async () => {
    const { lock } = await client.lockSettlement(order({ amount: '1.25', currency: 'AUD' }), test);
    expect(lock).toMatchObject({ usdRate: '0.66', usdValue: '0.83' });
  });

  it('gives a Live payment a one-time deposit address', async () => {
    const { lock: first } = await client.lockSettlement(order(), live);
    const { lock: second } = await client.lockSettlement(order(), live);
    expect(first!.depositAddress).toMatch(/^0x[0-9a-f]{40}$/);
    expect(second!.depositAddress).toMatch(/^0x[0-9a-f]{40}$/);
    expect(second!.depositAddress).not.toBe(first!.depositAddress);
  });

  it('returns the first lock unchanged on a repeat, even one with other terms', async () => {
    const request = order();
    const { lock: first } = await client.lockSettlement(request, live);
    clock.advance(60_000);
    const { lock: again } = await client.lockSettlement({ ...request, amount: '99.00', feeBps: 0, payoutWallet: '0x2222' }, live);
    expect(again).toEqual(first);
    expect(again!.depositAddress).toBe(first!.depositAddress);
    expect(again!.lockedAt).toBe(first!.lockedAt);
  });

  it('makes one lock of 10 concurrent first calls', async () => {
    const request = order();
    const results = await Promise.all(Array.from({ length: 10 }, () => client.lockSettlement(request, live)));
    const addresses = new Set(results.map((r) => r.lock!.depositAddress));
    expect(addresses.size).toBe(1);
    expect(new Set(results.map((r) => r.lock!.lockedAt)).size).toBe(1);
    // The timeline's line is written with the lock, once: by the one call that wrote it.
    const { entries } = await client.listTimeline({ paymentId: request.paymentId }, live);
    expect(entries.map((e) => [e.kind, JSON.parse(e.detailJson).deposit_address])).toEqual([
      ['address_assigned', results[0]!.lock!.depositAddress],
    ]);
  });

  it('hides a payment locked by another account or in the other mode', async () => {
    const request = order();
    await client.lockSettlement(request, test);
    await expect(client.lockSettlement(request, otherAccount)).rejects.toMatchObject({ code: 'not_found' });
    await expect(client.lockSettlement(request, live)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('names the field at fault', async () => {
    await expect(client.lockSettlement(order({ amount: '0.00' }), test)).rejects.toMatchObject({
      code: 'invalid_request',
      field: 'amount',
    });
    await expect(client.lockSettlement(order({ currency: 'JPY' }), test)).rejects.toMatchObject({
      code: 'invalid_request',
      field: 'currency',
    });
    await expect(client.lockSettlement(order({ feeBps: 10_001 }), test)).rejects.toMatchObject({
      code: 'invalid_request',
      field: 'fee_bps',
    });
    await expect(client.lockSettlement({ ...order(), paymentId: 'nope' }, test)).rejects.toMatchObject({
      code: 'invalid_request',
      field: 'payment_id',
    });
    await expect(client.lockSettlement({ ...order(), payoutWallet: undefined }, live)).rejects.toMatchObject({
      code: 'unavailable',
      field: 'payout_wallet',
    });
  });
});

describe('SimulateOutcome', () => {
  it('pays about 97% of the value into the merchant’s wallet', async () => {
    const paymentId = await started();
    const { verdict } = await client.simulateOutcome({ paymentId, outcome: SimulatedOutcome.PAID }, test);
    expect(verdict).toMatchObject({
      paymentId,
      kind: VerdictKind.PAID,
      holdAcceptable: false,
      decidedAt: BigInt(clock.now().getTime()),
      settlement: {
        coin: 'polygon_usdc',
        valueCoin: '10.476000', // 97% of 10.80 USD
        merchantReceived: '10.318860', // less 1.5%
        payoutWallet: WALLET,
      },
    });
    expect(verdict!.id).toMatch(/^vrd_/);
    // The verdict's timeline line: written with the verdict, at its time, naming it.
    const { entries } = await client.listTimeline({ paymentId }, test);
    expect(entries.map((e) => [e.kind, e.at, JSON.parse(e.detailJson).verdict])).toEqual([['verdict', verdict!.decidedAt, verdict!.id]]);
    expect(verdict!.holdReason).toBeUndefined();
    expect(verdict!.settlement!.txidIn).toMatch(TXID);
    expect(verdict!.settlement!.txidOut).toMatch(TXID);
  });

  it('holds an underpayment, acceptably, with what arrived', async () => {
    const paymentId = await started(test, { currency: 'USD' });
    const { verdict } = await client.simulateOutcome({ paymentId, outcome: SimulatedOutcome.UNDERPAID }, test);
    expect(verdict).toMatchObject({
      kind: VerdictKind.HELD,
      holdReason: '5.00 USDC arrived, 9.00 needed (90% of 10.00 USD).',
      holdAcceptable: true,
      settlement: { coin: 'polygon_usdc', valueCoin: '5.000000' },
    });
    expect(verdict!.settlement!.txidIn).toMatch(TXID);
    expect(verdict!.settlement!.merchantReceived).toBeUndefined();
  });

  it('fails a decline with no settlement fields', async () => {
    const paymentId = await started();
    const { verdict } = await client.simulateOutcome({ paymentId, outcome: SimulatedOutcome.FAILED }, test);
    expect(verdict).toMatchObject({ paymentId, kind: VerdictKind.FAILED, holdAcceptable: false });
    expect(verdict!.holdReason).toBeUndefined();
    expect(verdict!.settlement).toBeUndefined();
  });

  it('works for a Test payment without a payout wallet', async () => {
    const paymentId = await started(test, { payoutWallet: undefined });
    const { verdict } = await client.simulateOutcome({ paymentId, outcome: SimulatedOutcome.PAID }, test);
    expect(verdict!.kind).toBe(VerdictKind.PAID);
    expect(verdict!.settlement!.payoutWallet).toBeUndefined();
  });

  it('ends a payment once: a second call returns the first verdict, whatever it asks for', async () => {
    const paymentId = await started();
    const { verdict: first } = await client.simulateOutcome({ paymentId, outcome: SimulatedOutcome.FAILED }, test);
    clock.advance(1_000);
    const { verdict: second } = await client.simulateOutcome({ paymentId, outcome: SimulatedOutcome.PAID }, test);
    expect(second).toEqual(first);
  });

  it('reaches one verdict for 10 concurrent calls', async () => {
    const paymentId = await started();
    const outcomes = [SimulatedOutcome.PAID, SimulatedOutcome.UNDERPAID];
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client.simulateOutcome({ paymentId, outcome: outcomes[i % 2]! }, test)),
    );
    const first = results[0]!.verdict;
    expect(new Set(results.map((r) => r.verdict!.id)).size).toBe(1);
    for (const { verdict } of results) expect(verdict).toEqual(first);
  });

  it('refuses a Live payment', async () => {
    const paymentId = await started(live);
    await expect(client.simulateOutcome({ paymentId, outcome: SimulatedOutcome.PAID }, live)).rejects.toMatchObject({
      code: 'live_payment',
    });
  });

  it('refuses a payment that was not started (or is not the caller’s)', async () => {
    await expect(client.simulateOutcome({ paymentId: newId('payment'), outcome: SimulatedOutcome.PAID }, test)).rejects.toMatchObject({
      code: 'not_started',
    });
    const paymentId = await started();
    await expect(client.simulateOutcome({ paymentId, outcome: SimulatedOutcome.PAID }, otherAccount)).rejects.toMatchObject({
      code: 'not_started',
    });
  });

  it('refuses a missing or unknown outcome', async () => {
    const paymentId = await started();
    for (const outcome of [SimulatedOutcome.UNSPECIFIED, 99 as SimulatedOutcome]) {
      await expect(client.simulateOutcome({ paymentId, outcome }, test)).rejects.toMatchObject({
        code: 'invalid_outcome',
        field: 'outcome',
      });
    }
    await expect(client.simulateOutcome({ paymentId }, test)).rejects.toMatchObject({ code: 'invalid_outcome' });
  });
});
