import type { Logger } from '@hc/logging';
import { ChainUnavailable, type ChainReader, type ChainTransfer } from '../adapters/chain-reader.ts';
import { confirmOnChain } from '../domain/chain-confirmation.ts';
import { lockForTransfer, normalizeArrival, sameAddress, type Arrival } from '../domain/settlement-checks.ts';
import { verdictTimelineEntry } from '../domain/timeline.ts';
import { newVerdictId, verdictFrom } from '../domain/verdict.ts';
import { verdictReachedEvent } from '../adapters/verdict-events.ts';
import type { ChainCheckStore, DueChainCheck } from '../store/chain-checks.ts';
import type { SettlementDependencies } from './dependencies.ts';

/** What one pass of the scheduled chain check did. */
export interface ChainCheckPass {
  /** Payments whose deposit address was looked at. */
  readonly looked: number;
  /** Of those, confirmed paid by this pass. */
  readonly confirmed: number;
  /** Of those, not looked at because the chain reader did not answer (tried again next pass). */
  readonly unavailable: number;
}

export interface ChainCheckOptions {
  readonly chain: ChainReader;
  readonly store: ChainCheckStore;
  readonly intervalMs: number;
  /** How long after start a payment's address is still watched (late money after expiry counts). */
  readonly maxAgeMs: number;
  /** Payments claimed per pass. */
  readonly batchSize: number;
  readonly logger: Logger;
}

/**
 * One pass of the scheduled status check (docs/adr/0025): for started, undecided Live payments, ask
 * the chain for transfers to the deposit address and confirm on coin and amount before any notice.
 */
export async function checkChain(deps: SettlementDependencies, options: ChainCheckOptions): Promise<ChainCheckPass> {
  const due = await options.store.claimDue(deps.now(), options.intervalMs, options.maxAgeMs, options.batchSize);
  let confirmed = 0;
  let unavailable = 0;
  for (const payment of due) {
    let transfers: ChainTransfer[];
    try {
      transfers = await options.chain.transfersTo(payment.depositAddress);
    } catch (error) {
      if (!(error instanceof ChainUnavailable)) throw error;
      unavailable += 1;
      options.logger.warn({ payment_id: payment.paymentId, reason: error.message }, 'chain check: the chain reader did not answer');
      continue;
    }
    if (await judgeTransfers(deps, payment, transfers, options.logger)) confirmed += 1;
  }
  return { looked: due.length, confirmed, unavailable };
}

function asArrival(transfer: ChainTransfer): Arrival | null {
  try {
    return normalizeArrival({
      txidIn: transfer.txid,
      coin: transfer.coin,
      valueCoin: transfer.value,
      toAddress: transfer.to,
      forwardedTo: null,
      txidOut: null,
    });
  } catch {
    return null;
  }
}

/**
 * Judges the transfers not seen before, oldest first, under the payment's row lock (so a notice for
 * the same payment waits, then finds the chain's verdict). Each goes on the timeline once; the first
 * that confirms decides, and its verdict leaves through the outbox in the same transaction.
 */
async function judgeTransfers(
  deps: SettlementDependencies,
  due: DueChainCheck,
  transfers: ChainTransfer[],
  logger: Logger,
): Promise<boolean> {
  const at = deps.now();
  return deps.units(async (unit) => {
    const lock = await unit.lockPayment(due.paymentId);
    if (!lock?.livemode || (await unit.decidingVerdict(lock.paymentId))) return false;
    const inOrder = [...transfers].sort((a, b) => a.blockTime.getTime() - b.blockTime.getTime() || a.txid.localeCompare(b.txid));
    for (const transfer of inOrder) {
      if (!sameAddress(transfer.to, lock.depositAddress)) continue;
      const arrival = asArrival(transfer);
      if (!arrival) {
        logger.warn({ payment_id: lock.paymentId, txid_in: transfer.txid }, 'chain check: a transfer with a malformed amount was skipped');
        continue;
      }
      if (!(await unit.markChainTransferSeen(arrival.txidIn, lock.paymentId, at))) continue;
      const usedBefore = (await unit.findArrival(arrival.txidIn)) !== null;
      // Judged against the wallet decided for this transfer when the processor asked (docs/adr/0081).
      const judgedLock = lockForTransfer(lock, await unit.forwardDecision(lock.paymentId, arrival.txidIn));
      const conclusion = confirmOnChain(judgedLock, arrival, { txidUsedBefore: usedBefore });
      await unit.appendTimeline({
        paymentId: lock.paymentId,
        kind: 'transfer_seen_on_chain',
        detail: {
          txid_in: arrival.txidIn,
          coin: arrival.coin,
          value_coin: arrival.valueCoin,
          to_address: arrival.toAddress,
          block_time: transfer.blockTime.toISOString(),
          confirmed: conclusion.confirmed,
          reason: conclusion.confirmed ? null : conclusion.reason,
        },
        at,
      });
      if (!conclusion.confirmed) continue;
      await unit.insertArrival({ ...arrival, paymentId: lock.paymentId, receivedAt: at, source: 'chain' });
      const verdict = verdictFrom(conclusion.decision, { id: newVerdictId(at), paymentId: lock.paymentId, decidedAt: at });
      await unit.insertVerdict(verdict, null, verdictReachedEvent(lock, verdict));
      await unit.appendTimeline(verdictTimelineEntry(verdict));
      return true;
    }
    return false;
  });
}
