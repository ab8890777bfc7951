import { backoffDelay, WorkLoop, type StepResult } from '@hc/events';
import type { Logger } from '@hc/logging';
import type { MailSender } from '../adapters/smtp-sender.ts';
import type { NotificationsSql } from '../store/database.ts';
import type { ClaimedMail, MailStore } from '../store/mail-store.ts';

export interface MailWorkerSettings {
  readonly from: string;
  readonly concurrency: number;
  readonly leaseMs: number;
  readonly pollIntervalMs: number;
  readonly maxAttempts: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

export interface MailWorker {
  wake(): void;
  stop(): Promise<void>;
}

/**
 * Sends queued mails: claims due ones (a lease, the attempt counted), hands each to SMTP, and marks it
 * the moment the server answered (sent; or queued again after a doubling wait; or failed after the
 * last attempt or a permanent 5xx). A process killed mid-send leaves its mails `sending` with a lease;
 * when the lease runs out another worker (or the restarted one) sends them again with the same
 * Message-ID (docs/adr/0048 on the one window where that means twice).
 */
export function startMailWorker(options: {
  sql: NotificationsSql;
  mails: MailStore;
  sender: MailSender;
  settings: MailWorkerSettings;
  logger: Logger;
}): MailWorker {
  const { sql, mails, sender, settings, logger } = options;
  const pool = sql.pool;

  async function deliver(mail: ClaimedMail): Promise<void> {
    const result = await sender.send({
      from: { name: mail.senderName, address: settings.from },
      to: { name: mail.recipientName, address: mail.recipient },
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: mail.messageId,
    });
    if (result.ok) {
      await mails.markSent(pool, mail.id);
      logger.info({ mailId: mail.id, kind: mail.kind, attempts: mail.attempts }, 'mail sent');
      return;
    }
    const last = result.permanent || mail.attempts >= settings.maxAttempts;
    const retryInMs = last ? null : backoffDelay({ firstMs: settings.retryBaseMs, maxMs: settings.retryMaxMs }, mail.attempts);
    await mails.markAttemptFailed(pool, mail.id, result.error, retryInMs);
    logger.warn(
      { mailId: mail.id, kind: mail.kind, attempts: mail.attempts, retryInMs, error: result.error },
      last ? 'mail failed for good' : 'mail attempt failed; will retry',
    );
  }

  const loop = new WorkLoop({
    pollIntervalMs: settings.pollIntervalMs,
    backoff: { firstMs: 500, maxMs: 30_000 },
    onFailure: (error, attempt, retryInMs) => logger.error({ err: error, attempt, retryInMs }, 'mail worker step failed'),
    async step(): Promise<StepResult> {
      const claimed = await mails.claimDue(pool, settings.concurrency, settings.leaseMs);
      await Promise.all(claimed.map(deliver));
      return { again: claimed.length === settings.concurrency };
    },
  });
  loop.start();
  return {
    wake: () => loop.wake(),
    async stop() {
      await loop.stop();
      sender.close();
    },
  };
}
