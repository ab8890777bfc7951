import { writeOutbox } from '@hc/events';
import type { Arrival } from '../domain/settlement-checks.ts';
import type { SettlementLock } from '../domain/settlement-lock.ts';
import type { TimelineEntry } from '../domain/timeline.ts';
import type { Verdict } from '../domain/verdict.ts';
import type { OutboxEvent } from '../adapters/verdict-events.ts';
import type { Prisma } from './generated/prisma/client.ts';
import type { SettlementPrisma } from './prisma.ts';
import { toLock } from './settlement-locks.ts';
import { toVerdict, verdictData } from './verdicts.ts';

type Tx = Prisma.TransactionClient;
export type ArrivalSource = 'sandbox' | 'notice' | 'chain';
export type RecordedArrival = Arrival & { readonly paymentId: string; readonly receivedAt: Date; readonly source: ArrivalSource };

/**
 * One transaction over a payment's settlement records. `lockPayment` takes the payment's row lock
 * first, so everything that decides about one payment (notices, chain checks) runs one at a time,
 * while other payments never wait. Outbox rows and timeline entries commit with the change they describe.
 */
export class SettlementUnit {
  private readonly tx: Tx;

  constructor(tx: Tx) {
    this.tx = tx;
  }

  /** The payment's lock, row-locked until commit; null when no such payment was started. */
  async lockPayment(paymentId: string): Promise<SettlementLock | null> {
    const rows = await this.tx.$queryRaw<{ payment_id: string }[]>`
      SELECT payment_id FROM settlement_locks WHERE payment_id = ${paymentId} FOR UPDATE`;
    if (rows.length === 0) return null;
    const row = await this.tx.settlementLock.findUnique({ where: { paymentId } });
    return row ? toLock(row) : null;
  }

  /** Records a notice by id; false when that id was recorded before (a replay or a redelivery). */
  async insertNotice(notice: {
    id: string;
    paymentId: string | null;
    body: Prisma.InputJsonValue;
    outcome: string;
    receivedAt: Date;
  }): Promise<boolean> {
    const { count } = await this.tx.notice.createMany({ data: [notice], skipDuplicates: true });
    return count === 1;
  }

  async setNoticeOutcome(id: string, outcome: string): Promise<void> {
    await this.tx.notice.update({ where: { id }, data: { outcome } });
  }

  /** The verdict that decided the payment (paid or held), if any. */
  async decidingVerdict(paymentId: string): Promise<Verdict | null> {
    const row = await this.tx.verdict.findFirst({ where: { paymentId, kind: { in: ['paid', 'held'] } }, orderBy: { decidedAt: 'asc' } });
    return row ? toVerdict(row) : null;
  }

  async hasDetails(paymentId: string): Promise<boolean> {
    return (await this.tx.verdict.count({ where: { paymentId, kind: 'details' } })) > 0;
  }

  async findArrival(txidIn: string): Promise<RecordedArrival | null> {
    const row = await this.tx.arrival.findUnique({ where: { txidIn } });
    if (!row) return null;
    return {
      txidIn: row.txidIn,
      paymentId: row.paymentId,
      coin: row.coin,
      valueCoin: row.valueCoin.toFixed(6),
      toAddress: row.toAddress,
      forwardedTo: row.forwardedTo,
      txidOut: row.txidOut,
      receivedAt: row.receivedAt,
      source: row.source as ArrivalSource,
    };
  }

  /** Inserts the arrival unless its transaction was recorded before; false means "used before". */
  async insertArrival(a: RecordedArrival): Promise<boolean> {
    const { count } = await this.tx.arrival.createMany({
      data: [
        {
          txidIn: a.txidIn,
          paymentId: a.paymentId,
          coin: a.coin,
          valueCoin: a.valueCoin,
          toAddress: a.toAddress,
          forwardedTo: a.forwardedTo,
          txidOut: a.txidOut,
          receivedAt: a.receivedAt,
          source: a.source,
        },
      ],
      skipDuplicates: true,
    });
    return count === 1;
  }

  /** Completes a chain-confirmed arrival with the forwarding the notice reports. */
  async completeArrival(txidIn: string, forwardedTo: string | null, txidOut: string | null): Promise<void> {
    await this.tx.arrival.update({ where: { txidIn }, data: { forwardedTo, txidOut } });
  }

  /** The wallet decided for forwarding this transfer of this payment, if the processor asked (docs/adr/0081). */
  async forwardDecision(paymentId: string, txidIn: string): Promise<string | null> {
    const row = await this.tx.forwardDecision.findUnique({ where: { paymentId_txidIn: { paymentId, txidIn } } });
    return row?.payoutWallet ?? null;
  }

  /** Records the wallet this transfer is forwarded to unless one was decided before; the one that holds. */
  async decideForward(paymentId: string, txidIn: string, payoutWallet: string, at: Date): Promise<{ wallet: string; fresh: boolean }> {
    const { count } = await this.tx.forwardDecision.createMany({
      data: [{ paymentId, txidIn, payoutWallet, decidedAt: at }],
      skipDuplicates: true,
    });
    return { wallet: count === 1 ? payoutWallet : (await this.forwardDecision(paymentId, txidIn))!, fresh: count === 1 };
  }

  /** Records the verdict and its event together; false when a simulation verdict already exists. */
  async insertVerdict(verdict: Verdict, simulationOf: string | null, event: OutboxEvent): Promise<boolean> {
    const { count } = await this.tx.verdict.createMany({ data: [verdictData(verdict, simulationOf)], skipDuplicates: true });
    if (count === 0) return false;
    // The relay is woken at commit, without waiting for its next poll.
    await writeOutbox(this.tx, [event]);
    return true;
  }

  /** Records that the chain check judged this transfer for this payment; false when it had before. */
  async markChainTransferSeen(txidIn: string, paymentId: string, at: Date): Promise<boolean> {
    const { count } = await this.tx.chainTransferSeen.createMany({ data: [{ txidIn, paymentId, seenAt: at }], skipDuplicates: true });
    return count === 1;
  }

  async countTimeline(paymentId: string, kind: TimelineEntry['kind']): Promise<number> {
    return this.tx.timelineEntry.count({ where: { paymentId, kind } });
  }

  /** In SQL, as the lock's own line is written (settlement-locks.ts): one way into timeline_entries. */
  async appendTimeline(...entries: TimelineEntry[]): Promise<void> {
    if (entries.length === 0) return;
    // unnest keeps the entries' order, so their seq follows it as createMany's did.
    await this.tx.$executeRaw`
      INSERT INTO timeline_entries (payment_id, kind, detail, at)
      SELECT * FROM unnest(${entries.map((e) => e.paymentId)}::text[], ${entries.map((e) => e.kind)}::text[],
                           ${entries.map((e) => JSON.stringify(e.detail))}::jsonb[], ${entries.map((e) => e.at)}::timestamptz[])`;
  }
}

/** Runs `work` in one transaction with a SettlementUnit. */
export function inSettlementUnit<T>(prisma: SettlementPrisma, work: (unit: SettlementUnit) => Promise<T>): Promise<T> {
  // Concurrent work on one payment queues behind its row lock; give it time.
  return prisma.$transaction((tx) => work(new SettlementUnit(tx)), { maxWait: 5_000, timeout: 10_000 });
}
