/**
 * The mail catcher after a fault run: the receipts awaited, then every mail counted by its Message-ID
 * (notifications keeps one Message-ID per mail across attempts, so a Message-ID seen twice is a mail
 * sent twice).
 */
import { eventually } from '@hc/test-kit';
import { caughtMails, type ReceivedMail } from '@hc/test-kit/mail';

const isReceipt = (subject: string | undefined): boolean => /Receipt/.test(subject ?? '');

/** The distinct Message-IDs of the receipts, or of every other mail (the merchant's alerts). */
const messageIds = (mails: readonly ReceivedMail[], receipts: boolean): Set<string> =>
  new Set(mails.filter((m) => isReceipt(m.parsed.subject) === receipts).map((m) => m.messageId));

/**
 * Waits (at most `timeoutMs`) until the catcher holds `paid` receipts and, when given, `alerts` other
 * mails (distinct Message-IDs). A mail whose sender was killed mid-send goes again only when its lease
 * runs out (MAIL_LEASE_MS, 60 s by default), so the bound must outlast a lease.
 */
export async function waitForReceipts(mailUrl: string, paid: number, timeoutMs: number, alerts?: number): Promise<void> {
  await eventually(
    async () => {
      const mails = await caughtMails(mailUrl);
      return { receipts: messageIds(mails, true).size, others: messageIds(mails, false).size };
    },
    ({ receipts, others }) => receipts >= paid && (alerts === undefined || others >= alerts),
    timeoutMs,
  );
}

export interface MailCounts {
  /** Every copy the catcher got. */
  readonly sent: number;
  /**
   * Receipts by Message-ID: one per paid payment however many copies arrived (a copy sent again is
   * counted in `sentTwice` or `sentTwiceExplained`, not here: the replicas test once read 57 receipts
   * for 56 paid payments where one receipt's sender was killed in ADR 0048's window).
   */
  readonly receipts: number;
  /** Every other mail (the merchant's alerts: a payment held, a late payment), by Message-ID. */
  readonly others: number;
  /** `<Message-ID> ×N (arrivals …)` for every mail the catcher got more than once that no fault explains. */
  readonly sentTwice: string[];
  /** The same for the mails a fault explains (`explained`). */
  readonly sentTwiceExplained: string[];
}

/**
 * `explained(arrivals)`: whether a fault accounts for a mail's copies (ms since the epoch, in order). The
 * only one that does is a notifications copy killed inside ADR 0048's window: after the SMTP server
 * accepted the mail and before the row was marked sent (mailSenderKilledAt). Without it, none is.
 */
export async function countMails(mailUrl: string, explained: (arrivals: readonly number[]) => boolean = () => false): Promise<MailCounts> {
  const mails = await caughtMails(mailUrl);
  const arrivals = new Map<string, number[]>();
  for (const m of mails) arrivals.set(m.messageId, [...(arrivals.get(m.messageId) ?? []), m.receivedAt]);
  const twice = [...arrivals].filter(([, at]) => at.length > 1);
  const describe = ([id, at]: [string, number[]]): string =>
    `${id} ×${at.length} (arrivals ${at.map((t) => new Date(t).toISOString().slice(11, 23)).join(', ')})`;
  return {
    sent: mails.length,
    receipts: messageIds(mails, true).size,
    others: messageIds(mails, false).size,
    sentTwice: twice.filter(([, at]) => !explained(at)).map(describe),
    sentTwiceExplained: twice.filter(([, at]) => explained(at)).map(describe),
  };
}

/**
 * Whether a mail's first copy arrived just before one of `kills` of a notifications copy: the server
 * answers 250 once it has stored the mail, the sender marks the row sent right after it reads that 250,
 * so a kill in between leaves the row `sending` and the mail goes again with the same Message-ID when
 * its lease runs out (docs/adr/0048, the one at-least-once window of SMTP). `slackMs` bounds how long
 * that in-between may last on a loaded machine; a kill before the arrival (by more than the clocks'
 * jitter) or long after it explains nothing.
 */
export const mailSenderKilledAt =
  (kills: readonly number[], slackMs = 2_000) =>
  (arrivals: readonly number[]): boolean =>
    kills.some((kill) => kill >= arrivals[0]! - 250 && kill <= arrivals[0]! + slackMs);
