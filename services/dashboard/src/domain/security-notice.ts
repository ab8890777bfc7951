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
  readonly createdAt: Date;
}

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

/** The wallet a form asks for: trimmed; empty means none. */
export function walletOf(typed: string): string | null {
  const wallet = typed.trim();
  return wallet === '' ? null : wallet;
}
