import { judgeArrival, type Arrival, type Decision } from './settlement-checks.ts';
import type { SettlementLock } from './settlement-lock.ts';

/** What the scheduled chain check concluded about one transfer it saw. */
export type ChainConclusion =
  | { readonly confirmed: true; readonly decision: Extract<Decision, { kind: 'paid' }> }
  | { readonly confirmed: false; readonly reason: string };

type LockFacts = Pick<SettlementLock, 'depositAddress' | 'payoutWallet' | 'feeBps' | 'usdValue'>;

/**
 * The spec's "a scheduled status check can confirm on coin and amount before the processor's notice":
 * a transfer to the deposit address, in a dollar coin, of at least 90% of the locked USD value, in a
 * transaction never used before, confirms the payment as paid. The chain cannot show where the
 * processor forwarded the money, so nothing counts as forwarded yet (`merchant_received` and
 * `txid_out` stay null until the notice fills them, or flags a mismatch). Anything short of that
 * confirms nothing: the notice, which carries the whole evidence, decides (held or paid).
 */
export function confirmOnChain(lock: LockFacts, arrival: Arrival, evidence: { txidUsedBefore: boolean }): ChainConclusion {
  // Judged as if forwarded to the merchant's wallet: the only check the chain cannot answer.
  const decision = judgeArrival(lock, { ...arrival, forwardedTo: lock.payoutWallet }, evidence);
  if (decision.kind !== 'paid') return { confirmed: false, reason: decision.kind === 'held' ? decision.holdReason : 'declined' };
  return { confirmed: true, decision: { kind: 'paid', settlement: { ...decision.settlement, merchantReceived: null, txidOut: null } } };
}
