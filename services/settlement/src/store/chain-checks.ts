import type { SettlementPrisma } from './prisma.ts';

/** A started Live payment whose deposit address the chain check should look at now. */
export interface DueChainCheck {
  readonly paymentId: string;
  readonly depositAddress: string;
}

/**
 * Which payments the scheduled chain check looks at: Live, with a deposit address, not yet decided
 * (no paid or held verdict), locked within `maxAgeMs` (late money after expiry is still caught), and
 * not looked at within `intervalMs`. Claiming moves `chain_checked_at` forward in the same statement,
 * with FOR UPDATE SKIP LOCKED, so replicas running the check at once split the work and never take
 * the same payment in one pass.
 */
export class ChainCheckStore {
  private readonly prisma: SettlementPrisma;

  constructor(prisma: SettlementPrisma) {
    this.prisma = prisma;
  }

  async claimDue(now: Date, intervalMs: number, maxAgeMs: number, limit: number): Promise<DueChainCheck[]> {
    const lookedBefore = new Date(now.getTime() - intervalMs);
    const lockedAfter = new Date(now.getTime() - maxAgeMs);
    const rows = await this.prisma.$queryRaw<{ payment_id: string; deposit_address: string }[]>`
      UPDATE settlement_locks SET chain_checked_at = ${now}
       WHERE payment_id IN (
         SELECT l.payment_id FROM settlement_locks l
          WHERE l.livemode AND l.deposit_address IS NOT NULL
            AND l.locked_at > ${lockedAfter}
            AND (l.chain_checked_at IS NULL OR l.chain_checked_at <= ${lookedBefore})
            AND NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.payment_id = l.payment_id AND v.kind IN ('paid', 'held'))
          ORDER BY l.chain_checked_at NULLS FIRST, l.payment_id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
      RETURNING payment_id, deposit_address`;
    return rows.map((r) => ({ paymentId: r.payment_id, depositAddress: r.deposit_address }));
  }
}
