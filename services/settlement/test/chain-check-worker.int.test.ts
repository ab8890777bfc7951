// Risk covered: the scheduled chain check not running on its own, or two settlement replicas judging
// the same payment in one pass. The worker runs on a short CHAIN_CHECK_INTERVAL_MS against the
// emulated chain; the claim is raced by two database clients, as two replicas would.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { newId } from '@hc/ids';
import { createLogger } from '@hc/logging';
import { SettlementService } from '@hc/proto/settlement/v1';
import { loadEmulatorConfig, payThroughEmulator, startEmulator, type RunningEmulator } from '@hc/emulator';
import { createTestDatabase, eventually, testNatsPrefix, testNatsUrl, type TestDatabase } from '@hc/test-kit';
import { loadSettlementConfig, SETTLEMENT_MIGRATIONS_DIR, startSettlementService, type RunningSettlementService } from '../src/index.ts';
import { ChainCheckStore } from '../src/store/chain-checks.ts';
import { createSettlementPrisma } from '../src/store/prisma.ts';
import { SettlementLockStore } from '../src/store/settlement-locks.ts';

const live: CallContext = { accountId: 'acct_W', livemode: true, requestId: 'req_w' };
const WALLET = '0x7777777777777777777777777777777777777777';
const logger = createLogger('chain-worker-test', { level: 'silent' });
let db: TestDatabase;
let emulator: RunningEmulator;

beforeAll(async () => {
  db = await createTestDatabase('settlement', SETTLEMENT_MIGRATIONS_DIR);
  emulator = await startEmulator(loadEmulatorConfig({ EMULATOR_PORT: '0', LOG_LEVEL: 'silent' }), logger);
  emulator.directNoticesTo('http://127.0.0.1:1/notices');
});

afterAll(async () => {
  await emulator.stop();
  await db.drop();
});

describe('the chain check worker', () => {
  let service: RunningSettlementService;
  let client: ServiceClient<typeof SettlementService>;

  beforeAll(async () => {
    service = await startSettlementService(
      loadSettlementConfig({
        // One machine with the emulator: its published notice secret (docs/adr/0016).
        SETTLEMENT_LOCAL_MODE: 'true',
        SETTLEMENT_DATABASE_URL: db.url,
        SETTLEMENT_GRPC_ADDRESS: '127.0.0.1:0',
        SETTLEMENT_NOTICES_ADDRESS: '127.0.0.1:0',
        PROCESSOR_URL: emulator.url,
        CHAIN_RPC_URL: emulator.url,
        CHAIN_CHECK_INTERVAL_MS: '200',
        NATS_URL: testNatsUrl(),
        NATS_SUBJECT_PREFIX: testNatsPrefix('chainworker'),
        LOG_LEVEL: 'silent',
      }),
      logger,
    );
    client = createServiceClient(SettlementService, service.address);
  });

  afterAll(async () => {
    client.close();
    await service.stop();
  });

  it('confirms a paid Live payment by itself, on its interval, when no notice comes', async () => {
    const paymentId = newId('payment');
    await client.lockSettlement({ paymentId, amount: '12.00', currency: 'USD', payoutWallet: WALLET, feeBps: 100 }, live);
    await payThroughEmulator(emulator.url, paymentId, { amount: '12', notice: 'never' });
    const kinds = await eventually(
      async () => (await client.listTimeline({ paymentId }, live)).entries.map((e) => e.kind),
      (k) => k.includes('verdict'),
      15_000,
    );
    expect(kinds).toEqual(['address_assigned', 'transfer_seen_on_chain', 'verdict']);
  });

  it('records the USD rate, its source and the locked value with the address (FX locked at start)', async () => {
    const paymentId = newId('payment');
    const { lock } = await client.lockSettlement({ paymentId, amount: '10.00', currency: 'EUR', payoutWallet: WALLET, feeBps: 100 }, live);
    const [assigned] = (await client.listTimeline({ paymentId }, live)).entries;
    expect(assigned!.kind).toBe('address_assigned');
    expect(JSON.parse(assigned!.detailJson)).toEqual({
      deposit_address: lock!.depositAddress,
      payout_wallet: WALLET,
      usd_rate: '1.08',
      usd_rate_source: 'configured:FX_RATES_USD',
      usd_value: '10.80',
    });
  });

  it('keeps another account and mode out of the timeline', async () => {
    const paymentId = newId('payment');
    await client.lockSettlement({ paymentId, amount: '12.00', currency: 'USD', payoutWallet: WALLET, feeBps: 100 }, live);
    await expect(client.listTimeline({ paymentId }, { ...live, accountId: 'acct_X' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(client.listTimeline({ paymentId }, { ...live, livemode: false })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('claiming payments for a pass', () => {
  it('splits the due payments between replicas claiming at once: none twice, none left out', async () => {
    const locks = new SettlementLockStore(createSettlementPrisma(db.url));
    const now = new Date('2030-01-01T00:00:00.000Z');
    const ids = Array.from({ length: 12 }, () => newId('payment'));
    for (const [i, paymentId] of ids.entries())
      await locks.lockOnce({
        paymentId,
        accountId: 'acct_R',
        livemode: true,
        depositAddress: `0x${String(i).padStart(40, 'a')}`,
        payoutWallet: WALLET,
        feeBps: 100,
        amount: '1.00',
        currency: 'USD',
        usdRate: '1',
        usdValue: '1.00',
        usdRateSource: 'configured:FX_RATES_USD',
        lockedAt: new Date(now.getTime() - 60_000),
      });
    const replicas = [new ChainCheckStore(createSettlementPrisma(db.url)), new ChainCheckStore(createSettlementPrisma(db.url))];
    const claimed = (
      await Promise.all(
        replicas.flatMap((r) => [
          r.claimDue(now, 30_000, 86_400_000, 4),
          r.claimDue(now, 30_000, 86_400_000, 4),
          r.claimDue(now, 30_000, 86_400_000, 4),
        ]),
      )
    )
      .flat()
      .map((c) => c.paymentId)
      .filter((id) => ids.includes(id));
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(new Set(claimed)).toEqual(new Set(ids));
    // Just looked at: not due again within the interval, due after it.
    expect(
      (await replicas[0]!.claimDue(new Date(now.getTime() + 1_000), 30_000, 86_400_000, 50)).filter((c) => ids.includes(c.paymentId)),
    ).toEqual([]);
    expect(
      (await replicas[0]!.claimDue(new Date(now.getTime() + 31_000), 30_000, 86_400_000, 50)).filter((c) => ids.includes(c.paymentId)),
    ).toHaveLength(12);
  });
});
