import { formatTime } from './format.ts';

/**
 * A security notice (docs/adr/0038): a change to the account every user of it must hear of, shown as
 * a banner on each user's pages until that user dismisses it. The platform sends no email yet.
 */
export type NoticeKind = 'payout_wallet_changed';

export interface SecurityNotice {
  readonly id: string;
  readonly kind: NoticeKind;
  /** Who made the change (the user's email then). */
  readonly actorEmail: string;
  /** Before and after; null is "none". */
  readonly oldValue: string | null;
  readonly newValue: string | null;
  /** Live payments started and unpaid at the change, the first AFFECTED_SHOWN of them (docs/adr/0081). */
  readonly affectedPaymentIds: readonly string[];
  /** How many there were at least; null when they could not be listed (or the notice is older). */
  readonly affectedCount: number | null;
  readonly createdAt: Date;
}

/** Started, unpaid Live payments at a wallet change: the first ids, and how many (at least). */
export interface StartedUnpaid {
  readonly ids: readonly string[];
  readonly count: number;
}

/** The most payment ids a notice keeps and shows; the count says how many more there were. */
export const AFFECTED_SHOWN = 20;

/** How long a notice is shown (and kept) at most, dismissed or not. */
export const NOTICE_KEPT_MS = 90 * 24 * 60 * 60 * 1000;
/** The most notices a page shows at once (the newest). */
export const NOTICES_SHOWN = 5;

/** A notice's sentence, with the full addresses (a person must be able to check every digit). */
export function noticeText(notice: SecurityNotice): string {
  const by = `by ${notice.actorEmail} at ${formatTime(notice.createdAt)}`;
  if (notice.oldValue === null) return `The payout wallet was set to ${notice.newValue ?? 'none'} ${by}.`;
  if (notice.newValue === null) return `The payout wallet ${notice.oldValue} was removed ${by}.`;
  return `The payout wallet was changed from ${notice.oldValue} to ${notice.newValue} ${by}.`;
}

/**
 * What the notice says of the payments started and not yet paid at the change: their money goes to
 * the wallet the account has when it is forwarded (docs/adr/0081), so each may have been started by
 * whoever made the change. Null when there were none.
 */
export function affectedText(notice: SecurityNotice): string | null {
  if (notice.affectedCount === null)
    return 'Live payments started before the change and still open or pending are paid to the wallet the account has when their money arrives; check them under Payments.';
  if (notice.affectedCount === 0) return null;
  const more = notice.affectedCount > notice.affectedPaymentIds.length;
  const one = notice.affectedCount === 1;
  return (
    `${notice.affectedCount} Live ${one ? 'payment was' : 'payments were'} started and not yet paid at the change; ` +
    `${one ? 'its' : 'their'} money goes to the wallet the account has when it arrives. ` +
    `Cancel any payment link among them you do not recognise${more ? ` (the first ${notice.affectedPaymentIds.length} are listed)` : ''}:`
  );
}

/** Every started, unpaid payment found (newest first), as a notice keeps them: the first ids and the count. */
export function startedUnpaid(ids: readonly string[]): StartedUnpaid {
  return { ids: ids.slice(0, AFFECTED_SHOWN), count: ids.length };
}

/** The wallet a form asks for: trimmed; empty means none. */
export function walletOf(typed: string): string | null {
  const wallet = typed.trim();
  return wallet === '' ? null : wallet;
}
