/**
 * The mail catcher after a fault run: the receipts awaited, then every mail counted by its Message-ID
 * (notifications keeps one Message-ID per mail across attempts, so a Message-ID seen twice is a mail
 * sent twice).
 */
import { eventually } from '@hc/test-kit';
import { caughtMails } from '@hc/test-kit/mail';

const isReceipt = (subject: string | undefined): boolean => /Receipt/.test(subject ?? '');

/** Waits (at most `timeoutMs`) until the catcher holds `paid` receipts. */
export async function waitForReceipts(mailUrl: string, paid: number, timeoutMs: number): Promise<void> {
  await eventually(
    async () => (await caughtMails(mailUrl)).filter((m) => isReceipt(m.parsed.subject)).length,
    (receipts) => receipts >= paid,
    timeoutMs,
  );
}

export interface MailCounts {
  readonly sent: number;
  readonly receipts: number;
  /** `<Message-ID> ×N` for every mail the catcher got more than once. */
  readonly sentTwice: string[];
}

export async function countMails(mailUrl: string): Promise<MailCounts> {
  const mails = await caughtMails(mailUrl);
  const byMessageId = new Map<string, number>();
  for (const m of mails) byMessageId.set(m.messageId, (byMessageId.get(m.messageId) ?? 0) + 1);
  return {
    sent: mails.length,
    receipts: mails.filter((m) => isReceipt(m.parsed.subject)).length,
    sentTwice: [...byMessageId].filter(([, n]) => n > 1).map(([id, n]) => `${id} ×${n}`),
  };
}
