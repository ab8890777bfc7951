import { parseCurrency } from '@hc/money';
import type { Scope, SettlementLock } from '../domain/settlement-lock.ts';
import { Prisma } from './generated/prisma/client.ts';
import type { SettlementPrisma } from './prisma.ts';

type Row = Prisma.SettlementLockGetPayload<object>;

/** settlement_locks' columns under the names Prisma gives the row, for SQL that returns one. */
const ROW_COLUMNS = Prisma.raw(
  `payment_id AS "paymentId", account_id AS "accountId", livemode, deposit_address AS "depositAddress",
   payout_wallet AS "payoutWallet", fee_bps AS "feeBps", amount, currency, usd_rate AS "usdRate",
   usd_rate_source AS "usdRateSource", usd_value AS "usdValue", locked_at AS "lockedAt", chain_checked_at AS "chainCheckedAt"`,
);

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
   * Writes the lock unless the payment already has one, and answers the lock that holds: this one, or
   * the one a concurrent or earlier call wrote (null when that one is another account's or mode's).
   * One statement when this call writes (ON CONFLICT DO NOTHING, the Live timeline line in the same
   * statement), a second only when it did not: no interactive transaction, so no connection held
   * across round trips and no wait for one to start (a start under load was refused for that).
   */
  async lockOnce(lock: SettlementLock): Promise<SettlementLock | null> {
    const assigned = {
      deposit_address: lock.depositAddress,
      payout_wallet: lock.payoutWallet,
      usd_value: lock.usdValue,
      usd_rate: lock.usdRate,
      usd_rate_source: lock.usdRateSource,
    };
    // Data-modifying CTEs run once whether or not the outer query reads them (PostgreSQL's WITH).
    const written = await this.prisma.$queryRaw<Row[]>`
      WITH written AS (
        INSERT INTO settlement_locks (payment_id, account_id, livemode, deposit_address, payout_wallet, fee_bps, amount,
                                      currency, usd_rate, usd_value, usd_rate_source, locked_at)
        VALUES (${lock.paymentId}, ${lock.accountId}, ${lock.livemode}, ${lock.depositAddress}, ${lock.payoutWallet},
                ${lock.feeBps}::int, ${lock.amount}::numeric, ${lock.currency}, ${lock.usdRate}::numeric,
                ${lock.usdValue}::numeric, ${lock.usdRateSource}, ${lock.lockedAt}::timestamptz)
        ON CONFLICT (payment_id) DO NOTHING
        RETURNING *
      ), timeline AS (
        INSERT INTO timeline_entries (payment_id, kind, detail, at)
        SELECT payment_id, 'address_assigned', ${JSON.stringify(assigned)}::jsonb, locked_at FROM written WHERE livemode
      )
      SELECT ${ROW_COLUMNS} FROM written`;
    if (written[0]) return toLock(written[0]);
    // Another call wrote first; its commit is visible to this new statement (READ COMMITTED).
    return this.find({ accountId: lock.accountId, livemode: lock.livemode }, lock.paymentId);
  }

  /** The payment's lock if it belongs to the caller's account and mode; another's is simply not there. */
  async find(scope: Scope, paymentId: string): Promise<SettlementLock | null> {
    // SQL, not the query builder: every start and simulation reads a lock (Prisma compiles each call).
    const [row] = await this.prisma.$queryRaw<Row[]>`
      SELECT ${ROW_COLUMNS} FROM settlement_locks
       WHERE payment_id = ${paymentId} AND account_id = ${scope.accountId} AND livemode = ${scope.livemode}`;
    return row ? toLock(row) : null;
  }
}
