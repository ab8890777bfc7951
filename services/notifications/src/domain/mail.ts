import type { AlertKind } from './settings.ts';

/** An invitation is the dashboard's (a new user's one-time link, docs/adr/0059). */
export type MailKind = 'receipt' | AlertKind | 'invitation';

/** The From display name of merchant alerts (a receipt's is its merchant's). */
export const ALERTS_SENDER = 'Checkout alerts';
export type MailStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'canceled';

/** What a template renders: the subject and both bodies, never the recipient (erasure keeps bodies). */
export interface MailContent {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** A mail to queue: one per cause (dedupeKey), to one recipient. */
export interface NewMail {
  readonly accountId: string;
  readonly livemode: boolean;
  readonly kind: MailKind;
  /** `receipt:<payment>` (one per payment, whatever event paid it) or `<kind>:<event id>`. */
  readonly dedupeKey: string;
  readonly paymentId: string | null;
  readonly recipient: string;
  readonly recipientName: string | null;
  /** The From display name (the address is the platform's). */
  readonly senderName: string;
  readonly content: MailContent;
  /**
   * Recorded but never sent, for this reason (the mail log shows it): a Test receipt the platform may
   * not send (docs/notifications.md, "Test receipts"). Its dedupe key is spent all the same.
   */
  readonly canceledBecause?: string;
}

/** One mail as the log shows it. */
export interface MailRecord {
  readonly id: string;
  readonly accountId: string;
  readonly livemode: boolean;
  readonly kind: MailKind;
  readonly status: MailStatus;
  readonly recipient: string | null;
  readonly subject: string;
  readonly paymentId: string | null;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly sentAt: Date | null;
}

/**
 * The Message-ID of a mail: the same on every attempt, so a mail handed over twice (a crash after the
 * server's 250, docs/adr/0048) is recognisably one mail to the receiving side.
 */
export function messageIdOf(mailId: string, from: string): string {
  const domain = from.slice(from.lastIndexOf('@') + 1);
  return `<${mailId}@${domain}>`;
}

/** An SMTP answer in the 5xx range is permanent: trying again would be refused again. */
export function isPermanentSmtpFailure(responseCode: number | undefined): boolean {
  return responseCode !== undefined && responseCode >= 500 && responseCode < 600;
}
