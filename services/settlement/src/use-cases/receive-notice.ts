import { crashPoint } from '@hc/runtime';
import { judgeArrival, lockForTransfer, normalizeArrival, type Arrival } from '../domain/settlement-checks.ts';
import type { SettlementLock } from '../domain/settlement-lock.ts';
import { differencesFromConfirmed, type ProcessorNotice } from '../domain/notice.ts';
import { merchantShare, parseCoinAmount, formatCoin } from '../domain/coins.ts';
import { verdictTimelineEntry, type TimelineEntry } from '../domain/timeline.ts';
import { detailsVerdict, newVerdictId, verdictFrom, type Verdict } from '../domain/verdict.ts';
import { verdictReachedEvent } from '../adapters/verdict-events.ts';
import type { SettlementUnit } from '../store/settlement-unit.ts';
import type { SettlementDependencies } from './dependencies.ts';

/** What handling a notice did (recorded on the notice, answered to the processor). */
export type NoticeOutcome = 'verdict' | 'details' | 'mismatch' | 'duplicate' | 'after_verdict' | 'replayed' | 'unknown_payment';

/**
 * A verified processor notice, handled once by its id, under the payment's row lock:
 * - the first report of money for the payment: the settlement checks decide, and the verdict goes
 *   out through the outbox in the same transaction that records the notice;
 * - the same transaction again (another notice id for it, e.g. a processor retry): nothing changes;
 * - after the chain check confirmed the payment: the notice is checked against what was confirmed;
 *   agreeing, its forwarding details fill the payment (a `details` verdict → payment.updated);
 *   disagreeing, the payment keeps its status and the mismatch goes on the timeline.
 */
export async function receiveNotice(deps: SettlementDependencies, notice: ProcessorNotice, body: object): Promise<NoticeOutcome> {
  const at = deps.now();
  return deps.units(async (unit) => {
    const lock = await unit.lockPayment(notice.paymentId);
    const known = lock !== null && lock.livemode;
    const fresh = await unit.insertNotice({
      id: notice.id,
      paymentId: known ? notice.paymentId : null,
      body,
      outcome: 'received',
      receivedAt: at,
    });
    if (!fresh) return 'replayed';
    // Crash tests: dead here, the notice, its arrival and verdict roll back together; the processor redelivers.
    crashPoint('settlement.notice.recorded');
    if (!known) return finish(unit, notice, 'unknown_payment');

    const arrival = normalizeArrival(notice.arrival);
    // The wallet this transfer was to be forwarded to: decided when the processor asked, from the
    // account's wallet then (docs/adr/0081); the start's wallet when it never asked.
    const judgedLock = lockForTransfer(lock, await unit.forwardDecision(lock.paymentId, arrival.txidIn));
    const entry = (kind: TimelineEntry['kind'], detail: TimelineEntry['detail']): TimelineEntry => ({
      paymentId: lock.paymentId,
      kind,
      detail,
      at,
    });
    const received: ReceivedNotice = { unit, notice, lock, judgedLock, arrival, at, entry };
    await recordArrivalOnTimeline(received);

    const decided = await unit.decidingVerdict(lock.paymentId);
    if (!decided) {
      const firstUse = await unit.insertArrival({ ...arrival, paymentId: lock.paymentId, receivedAt: at, source: 'notice' });
      const verdict = verdictFrom(judgeArrival(judgedLock, arrival, { txidUsedBefore: !firstUse }), {
        id: newVerdictId(at),
        paymentId: lock.paymentId,
        decidedAt: at,
      });
      await unit.insertVerdict(verdict, null, verdictReachedEvent(lock, verdict));
      await unit.appendTimeline(verdictTimelineEntry(verdict));
      return finish(unit, notice, 'verdict');
    }
    return afterDecision(received, decided);
  });
}

/** One notice being handled, under its payment's lock: what the steps below share. */
interface ReceivedNotice {
  readonly unit: SettlementUnit;
  readonly notice: ProcessorNotice;
  readonly lock: SettlementLock;
  /** The lock with the payout wallet this transfer was to be forwarded to. */
  readonly judgedLock: SettlementLock;
  /** The notice's arrival, its amount normalized. */
  readonly arrival: Arrival;
  readonly at: Date;
  readonly entry: (kind: TimelineEntry['kind'], detail: TimelineEntry['detail']) => TimelineEntry;
}

/** The notice and the forwarding it reports, on the payment's timeline. */
async function recordArrivalOnTimeline({ unit, notice, arrival, entry }: ReceivedNotice): Promise<void> {
  await unit.appendTimeline(
    entry('notice_received', {
      notice: notice.id,
      // Only notices whose Standard Webhooks signature verified reach this use case (refusals: notice_rejected).
      signature: 'verified',
      txid_in: arrival.txidIn,
      coin: arrival.coin,
      value_coin: arrival.valueCoin,
      to_address: arrival.toAddress,
    }),
    entry('forwarded', {
      notice: notice.id,
      forwarded_to: arrival.forwardedTo,
      txid_out: arrival.txidOut,
      value_forwarded: notice.valueForwarded,
    }),
  );
}

/** A notice for a payment already decided: details for a chain-confirmed payment, a duplicate, or more money. */
async function afterDecision(received: ReceivedNotice, decided: Verdict): Promise<NoticeOutcome> {
  const { unit, notice, lock, arrival, at, entry } = received;
  const recorded = await unit.findArrival(arrival.txidIn);
  const confirmedOnChain =
    decided.kind === 'paid' && decided.settlement?.merchantReceived === null && !(await unit.hasDetails(lock.paymentId));
  const chainArrival = decided.settlement?.txidIn ? await unit.findArrival(decided.settlement.txidIn) : null;
  if (confirmedOnChain && chainArrival?.source === 'chain') return completeChainConfirmed(received, decided, chainArrival);
  if (recorded?.paymentId === lock.paymentId) {
    await unit.appendTimeline(entry('notice_duplicate', { notice: notice.id, txid_in: arrival.txidIn }));
    return finish(unit, notice, 'duplicate');
  }
  // More money after the payment was decided: recorded (so its transaction counts as used), never a second verdict.
  await unit.insertArrival({ ...arrival, paymentId: lock.paymentId, receivedAt: at, source: 'notice' });
  await unit.appendTimeline(
    entry('notice_mismatch', {
      notice: notice.id,
      status_kept: decided.kind,
      differences: `another arrival (${arrival.txidIn}) after the payment was ${decided.kind}`,
    }),
  );
  return finish(unit, notice, 'after_verdict');
}

/**
 * The chain check confirmed the payment first: the notice is checked against what was confirmed;
 * agreeing, its forwarding details fill the payment; disagreeing, the mismatch goes on the timeline.
 */
async function completeChainConfirmed(received: ReceivedNotice, decided: Verdict, chainArrival: Arrival): Promise<NoticeOutcome> {
  const { unit, notice, lock, judgedLock, arrival, at, entry } = received;
  // The checks a chain transfer cannot show (deposit address, payout wallet) are judged now too.
  const judged = judgeArrival(judgedLock, arrival, { txidUsedBefore: false });
  const differences = differencesFromConfirmed(chainArrival, arrival);
  if (judged.kind === 'held') differences.push(judged.holdReason);
  if (differences.length > 0) {
    await unit.appendTimeline(
      entry('notice_mismatch', { notice: notice.id, status_kept: decided.kind, differences: differences.join('; ') }),
    );
    return finish(unit, notice, 'mismatch');
  }
  await unit.completeArrival(chainArrival.txidIn, arrival.forwardedTo, arrival.txidOut);
  const value = parseCoinAmount(arrival.valueCoin)!;
  const verdict = detailsVerdict(
    {
      coin: arrival.coin,
      valueCoin: formatCoin(value),
      merchantReceived: formatCoin(merchantShare(value, lock.feeBps)),
      txidIn: arrival.txidIn,
      txidOut: arrival.txidOut,
      payoutWallet: judgedLock.payoutWallet,
    },
    { id: newVerdictId(at), paymentId: lock.paymentId, decidedAt: at },
  );
  await unit.insertVerdict(verdict, null, verdictReachedEvent(lock, verdict));
  await unit.appendTimeline(verdictTimelineEntry(verdict));
  return finish(unit, notice, 'details');
}

async function finish(unit: SettlementUnit, notice: ProcessorNotice, outcome: NoticeOutcome): Promise<NoticeOutcome> {
  await unit.setNoticeOutcome(notice.id, outcome);
  return outcome;
}
