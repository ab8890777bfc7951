import { ApiError } from '@hc/errors';
import type { SettlementDependencies } from './dependencies.ts';

/** The processor's question: where to forward this transfer to this payment's deposit address. */
export interface ForwardQuestion {
  readonly paymentId: string;
  /** The inbound transaction about to be forwarded. */
  readonly txidIn: string;
}

/**
 * Where the money of one transfer goes, decided when the processor is about to forward it: the
 * account's payout wallet as its owner has it at this moment (docs/adr/0081), not the one of the
 * start. A wallet changed back after a borrowed dashboard pointed it elsewhere therefore reaches every
 * payment started in between. The fee and the USD value stay those locked at start (spec).
 *
 * The first decision for a transfer is kept and given again to a repeated question, so a processor
 * retrying after a lost answer cannot be sent to two wallets. Refusals leave the money with the
 * processor, which asks again later: `not_found` (no such Live payment), `no_payout_wallet` (the
 * account has none now — never the old one), `service_unavailable` (the account's owner did not answer).
 * A suspended account's money already on its way still goes to its current wallet (ADR 0037).
 */
export async function decideForwardTarget(deps: SettlementDependencies, question: ForwardQuestion): Promise<string> {
  const known = await deps.units(async (unit) => {
    const lock = await unit.lockPayment(question.paymentId);
    if (!lock?.livemode) return null;
    return { lock, decided: await unit.forwardDecision(lock.paymentId, question.txidIn) };
  });
  if (!known) throw new ApiError('not_found', 'No Live payment with this id was started.');
  if (known.decided !== null) return known.decided;

  // Read outside the transaction: no row lock is held while the account's owner answers.
  const { lock } = known;
  const { account } = await deps.accounts.getAccount(
    {},
    { accountId: lock.accountId, livemode: true, requestId: `fwd_${question.txidIn}` },
  );
  const wallet = account?.payoutWallet ?? '';
  if (wallet === '') throw new ApiError('no_payout_wallet', 'The account has no payout wallet now; the money waits until it has one.');

  const at = deps.now();
  return deps.units(async (unit) => {
    await unit.lockPayment(lock.paymentId);
    const decision = await unit.decideForward(lock.paymentId, question.txidIn, wallet, at);
    if (decision.fresh) {
      await unit.appendTimeline({
        paymentId: lock.paymentId,
        kind: 'forward_target_decided',
        detail: { txid_in: question.txidIn, payout_wallet: decision.wallet, wallet_at_start: lock.payoutWallet },
        at,
      });
    }
    return decision.wallet;
  });
}
