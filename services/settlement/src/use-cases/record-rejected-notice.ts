import type { SettlementDependencies } from './dependencies.ts';

/** At most this many rejected-notice lines per payment: a flood of forgeries cannot bury its timeline. */
export const MAX_REJECTED_LINES = 20;

/**
 * A notice refused (bad signature, stale, malformed) that names a started Live payment goes on that
 * payment's timeline, so support sees that someone sent it. Nothing in it is trusted: only the claimed
 * notice id and the reason it was refused are kept, never its amounts or addresses.
 */
export async function recordRejectedNotice(
  deps: SettlementDependencies,
  claimedPaymentId: string,
  rejection: { noticeId: string | null; reason: string },
): Promise<boolean> {
  const at = deps.now();
  return deps.units(async (unit) => {
    const lock = await unit.lockPayment(claimedPaymentId);
    if (!lock?.livemode) return false;
    if ((await unit.countTimeline(lock.paymentId, 'notice_rejected')) >= MAX_REJECTED_LINES) return false;
    await unit.appendTimeline({
      paymentId: lock.paymentId,
      kind: 'notice_rejected',
      detail: { notice: rejection.noticeId?.slice(0, 100) ?? null, reason: rejection.reason.slice(0, 300) },
      at,
    });
    return true;
  });
}
