import { parseCurrency } from '@hc/money';
import type { Scope, SettlementLock } from '../domain/settlement-lock.ts';
import type { Prisma } from './generated/prisma/client.ts';
import type { SettlementPrisma } from './prisma.ts';

type Row = Prisma.SettlementLockGetPayload<object>;

export function toLock(row: Row): SettlementLock {
  const currency = parseCurrency(row.currency);
  if (!currency) throw new Error(`settlement_locks row ${row.paymentId} holds an unknown currency`);
  return {
    paymentId: row.paymentId,
    accountId: row.accountId,
    livemode: row.livemode,
    depositAddress: row.depositAddress,
    payoutWallet: row.payoutWallet,
    feeBps: row.feeBps,
    amount: row.amount.toFixed(2),
    currency,
    // toFixed() without digits: plain notation, no padding to the column's scale ("1.08", not "1.0800000000").
    usdRate: row.usdRate.toFixed(),
    usdValue: row.usdValue.toFixed(2),
    usdRateSource: row.usdRateSource,
    lockedAt: row.lockedAt,
  };
}

/** The only code that knows the settlement_locks table. Every lookup requires the caller's scope. */
export class SettlementLockStore {
  private readonly prisma: SettlementPrisma;

  constructor(prisma: SettlementPrisma) {
    this.prisma = prisma;
  }

  /**
   * Writes the lock unless the payment already has one (INSERT … ON CONFLICT DO NOTHING), so
   * concurrent first calls leave exactly one lock. Returns whether this call wrote it.
   */
  async insertIfAbsent(lock: SettlementLock): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      // SQL, as the chain check's claim (chain-checks.ts) writes this table too: one way into it (docs/adr/0084).
      const count = await tx.$executeRaw`
        INSERT INTO settlement_locks (payment_id, account_id, livemode, deposit_address, payout_wallet, fee_bps, amount,
                                      currency, usd_rate, usd_value, usd_rate_source, locked_at)
        VALUES (${lock.paymentId}, ${lock.accountId}, ${lock.livemode}, ${lock.depositAddress}, ${lock.payoutWallet},
                ${lock.feeBps}::int, ${lock.amount}::numeric, ${lock.currency}, ${lock.usdRate}::numeric,
                ${lock.usdValue}::numeric, ${lock.usdRateSource}, ${lock.lockedAt}::timestamptz)
        ON CONFLICT (payment_id) DO NOTHING`;
      if (count === 1 && lock.livemode) {
        await tx.timelineEntry.create({
          data: {
            paymentId: lock.paymentId,
            kind: 'address_assigned',
            detail: {
              deposit_address: lock.depositAddress,
              payout_wallet: lock.payoutWallet,
              usd_value: lock.usdValue,
              usd_rate: lock.usdRate,
              usd_rate_source: lock.usdRateSource,
            },
            at: lock.lockedAt,
          },
        });
      }
      return count === 1;
    });
  }

  /** The payment's lock if it belongs to the caller's account and mode; another's is simply not there. */
  async find(scope: Scope, paymentId: string): Promise<SettlementLock | null> {
    const row = await this.prisma.settlementLock.findFirst({ where: { paymentId, accountId: scope.accountId, livemode: scope.livemode } });
    return row ? toLock(row) : null;
  }
}
