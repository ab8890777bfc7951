// Risk covered: a blockchain transaction counted for two payments. Exercised at the use-case level
// with real PostgreSQL, because the sandbox behind gRPC never repeats a transaction id.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient } from '@hc/grpc';
import { newId } from '@hc/ids';
import { MerchantAdminService } from '@hc/proto/accounts/v1';
import { createTestDatabase, TestClock, type TestDatabase } from '@hc/test-kit';
import { DEFAULT_FX_RATES_USD } from '../src/domain/fx.ts';
import type { SettlementLock } from '../src/domain/settlement-lock.ts';
import type { SimulatedOutcome } from '../src/domain/simulation.ts';
import { SETTLEMENT_MIGRATIONS_DIR } from '../src/migrations.ts';
import { HttpLiveProcessor } from '../src/adapters/http-live-processor.ts';
import { SandboxProcessor } from '../src/adapters/sandbox-processor.ts';
import type { ProcessorReport, SimulatingProcessor } from '../src/adapters/settlement-processor.ts';
import { ConfiguredFxRates } from '../src/adapters/fx-rate-source.ts';
import { createSettlementPrisma, type SettlementPrisma } from '../src/store/prisma.ts';
import { SettlementLockStore } from '../src/store/settlement-locks.ts';
import { TimelineStore } from '../src/store/timeline.ts';
import { VerdictStore } from '../src/store/verdicts.ts';
import { inSettlementUnit } from '../src/store/settlement-unit.ts';
import type { SettlementDependencies } from '../src/use-cases/dependencies.ts';
import { lockSettlement } from '../src/use-cases/lock-settlement.ts';
import { simulateOutcome } from '../src/use-cases/simulate-outcome.ts';

const WALLET = '0x1111111111111111111111111111111111111111';
const REUSED_TXID = `0x${'7'.repeat(64)}`;
const scope = { accountId: 'acct_A', livemode: false };

/** The sandbox's arrivals, but always with the same inbound transaction. */
class ReplayingSandbox implements SimulatingProcessor {
  private readonly sandbox = new SandboxProcessor('polygon_usdc');

  allocateDepositAddress(): Promise<null> {
    return this.sandbox.allocateDepositAddress();
  }

  async simulate(lock: SettlementLock, outcome: SimulatedOutcome): Promise<ProcessorReport> {
    const report = await this.sandbox.simulate(lock, outcome);
    return report.kind === 'arrival' ? { kind: 'arrival', arrival: { ...report.arrival, txidIn: REUSED_TXID } } : report;
  }
}

let db: TestDatabase;
let prisma: SettlementPrisma;
let deps: SettlementDependencies;

beforeAll(async () => {
  db = await createTestDatabase('settlement', SETTLEMENT_MIGRATIONS_DIR);
  prisma = createSettlementPrisma(db.url);
  deps = {
    locks: new SettlementLockStore(prisma),
    verdicts: new VerdictStore(prisma),
    timeline: new TimelineStore(prisma),
    fx: new ConfiguredFxRates(DEFAULT_FX_RATES_USD),
    // Test mode only here: the Live processor is never called.
    processors: { test: new ReplayingSandbox(), live: new HttpLiveProcessor('http://127.0.0.1:9', 100) },
    units: (work) => inSettlementUnit(prisma, work),
    now: new TestClock(new Date('2026-03-01T12:00:00.000Z')).now,
    // Test mode only here: no forwarding is asked about, so the gateway is never called.
    accounts: createServiceClient(MerchantAdminService, '127.0.0.1:9', { timeoutMs: 100 }),
  };
});

afterAll(async () => {
  deps.accounts.close();
  await prisma.$disconnect();
  await db.drop();
});

async function startedPayment(): Promise<string> {
  const paymentId = newId('payment');
  await lockSettlement(deps, scope, { paymentId, amount: '10.00', currency: 'USD', payoutWallet: WALLET, feeBps: 150 });
  return paymentId;
}

describe('a transaction used before', () => {
  it('pays the first payment and holds the second, not acceptably', async () => {
    const first = await simulateOutcome(deps, scope, { paymentId: await startedPayment(), outcome: 'paid' });
    expect(first).toMatchObject({ kind: 'paid', settlement: { txidIn: REUSED_TXID, valueCoin: '9.700000', merchantReceived: '9.554500' } });

    const secondId = await startedPayment();
    const second = await simulateOutcome(deps, scope, { paymentId: secondId, outcome: 'paid' });
    expect(second).toMatchObject({
      paymentId: secondId,
      kind: 'held',
      holdAcceptable: false,
      holdReason: `Transaction ${REUSED_TXID} was already used for a payment; a transaction counts only once.`,
      settlement: { coin: 'polygon_usdc', valueCoin: '9.700000', txidIn: REUSED_TXID, merchantReceived: null, txidOut: null },
    });
    // The held verdict is recorded, and the arrival stays the first payment's.
    expect(await deps.verdicts.findSimulation(secondId)).toEqual(second);
    const arrivals = await prisma.arrival.findMany({ where: { txidIn: REUSED_TXID } });
    expect(arrivals.map((a) => a.paymentId)).toEqual([first.paymentId]);
  });
});

describe('concurrent simulations of one payment', () => {
  it('record one arrival and one verdict: the losers roll back', async () => {
    const paymentId = await startedPayment();
    const sandboxDeps = { ...deps, processors: { ...deps.processors, test: new SandboxProcessor('polygon_usdt') } };
    const verdicts = await Promise.all(
      Array.from({ length: 10 }, () => simulateOutcome(sandboxDeps, scope, { paymentId, outcome: 'underpaid' })),
    );
    expect(new Set(verdicts.map((v) => v.id)).size).toBe(1);
    expect(await prisma.arrival.count({ where: { paymentId } })).toBe(1);
    expect(await prisma.verdict.count({ where: { paymentId } })).toBe(1);
    expect(verdicts[0]).toMatchObject({ kind: 'held', holdAcceptable: true, settlement: { coin: 'polygon_usdt', valueCoin: '5.000000' } });
  });
});
