import { retryWhileDatabaseAway } from '@hc/db';
import { backoffDelay, WorkLoop, type StepResult } from '@hc/batching';
import type { Logger } from '@hc/logging';
import type { SecretBox } from '@hc/secrets';
import { withLink } from '../domain/invitation-mails.ts';
import type { MailSender } from '../adapters/smtp-sender.ts';
import type { NotificationsSql } from '../store/database.ts';
import { sealedLinkContext, type ClaimedMail, type MailStore } from '../store/mail-store.ts';

export interface MailWorkerSettings {
  readonly from: string;
  readonly concurrency: number;
  readonly leaseMs: number;
  readonly pollIntervalMs: number;
  readonly maxAttempts: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

/**
 * How long before its lease runs out a worker stops trying to record a sent mail: the lease is set by
 * the database's clock, the deadline by this process's, and the two may differ a little.
 */
const LEASE_MARGIN_MS = 1_000;
/** Retries due within this long wake the worker by a timer; later ones are found by the poll. */
const RETRY_ALARM_MAX_MS = 60_000;

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
  /** Opens invitations' sealed links (null: this deployment has no keys, and queues none). */
  links: SecretBox | null;
  logger: Logger;
}): MailWorker {
  const { sql, mails, sender, settings, links, logger } = options;
  const pool = sql.pool;

  /** The bodies to send: an invitation's with its link opened in memory only (never logged). */
  function bodies(mail: ClaimedMail): { text: string; html: string } {
    if (mail.sealedLink === null) return { text: mail.text, html: mail.html };
    if (!links) throw new Error('an invitation is queued but SECRETS_ENCRYPTION_KEYS is not set: its link cannot be opened');
    return withLink(mail, links.open(mail.sealedLink, sealedLinkContext(mail.id)));
  }

  /** `leaseEnds`: when another worker may take the mail again (ms since the epoch, this process's clock). */
  async function deliver(mail: ClaimedMail, leaseEnds: number): Promise<void> {
    let body: { text: string; html: string };
    try {
      body = bodies(mail);
    } catch (error) {
      // A key removed or a value altered: no attempt can succeed. The message names the row, not the link.
      await mails.markAttemptFailed(pool, mail.id, (error as Error).message, null);
      logger.error({ mailId: mail.id, kind: mail.kind, err: error }, 'mail failed: its sealed link does not open');
      return;
    }
    const result = await sender.send({
      from: { name: mail.senderName, address: settings.from },
      to: { name: mail.recipientName, address: mail.recipient },
      subject: mail.subject,
      ...body,
      messageId: mail.messageId,
    });
    if (result.ok) {
      // The server has the mail. Recording that must outlast the database being briefly away (a
      // failover takes seconds, docs/adr/0091): given up, the row stays `sending` and is sent again when
      // its lease runs out (ADR 0048's window, stretched from one round trip to the whole outage).
      await retryWhileDatabaseAway(() => mails.markSent(pool, mail.id), {
        deadline: leaseEnds - LEASE_MARGIN_MS,
        onRetry: (error) => logger.warn({ mailId: mail.id, err: error }, 'mail sent; its database is away, recording it again'),
      });
      logger.info({ mailId: mail.id, kind: mail.kind, attempts: mail.attempts }, 'mail sent');
      return;
    }
    const last = result.permanent || mail.attempts >= settings.maxAttempts;
    const retryInMs = last ? null : backoffDelay({ firstMs: settings.retryBaseMs, maxMs: settings.retryMaxMs }, mail.attempts);
    await mails.markAttemptFailed(pool, mail.id, result.error, retryInMs);
    // Sent again when due, not at the next poll after (another worker's poll may take it first).
    if (retryInMs !== null && retryInMs <= RETRY_ALARM_MAX_MS) loop.wakeIn(retryInMs);
    logger.warn(
      { mailId: mail.id, kind: mail.kind, attempts: mail.attempts, retryInMs, error: result.error },
      last ? 'mail failed for good' : 'mail attempt failed; will retry',
    );
  }

  // Each slot is taken again as soon as its mail is done, not when the slowest mail of a claim is:
  // one slow mailbox holds one slot, and the others keep sending (docs/adr/0107).
  const inFlight = new Set<Promise<void>>();
  const loop = new WorkLoop({
    pollIntervalMs: settings.pollIntervalMs,
    backoff: { firstMs: 500, maxMs: 30_000 },
    onFailure: (error, attempt, retryInMs) => logger.error({ err: error, attempt, retryInMs }, 'mail worker step failed'),
    async step(): Promise<StepResult> {
      const free = settings.concurrency - inFlight.size;
      if (free <= 0) return { again: false };
      // Taken before the claim: the lease the claim sets (on the database's clock) ends after this.
      const leaseEnds = Date.now() + settings.leaseMs;
      const claimed = await mails.claimDue(pool, free, settings.leaseMs);
      for (const mail of claimed) {
        const sending: Promise<void> = deliver(mail, leaseEnds)
          // The row stays `sending` and is taken again when its lease runs out: nothing is lost.
          .catch((error: unknown) => logger.error({ mailId: mail.id, err: error }, 'mail worker: a mail could not be completed'))
          .finally(() => {
            inFlight.delete(sending);
            loop.wake();
          });
        inFlight.add(sending);
      }
      return { again: claimed.length > 0 && claimed.length === free };
    },
  });
  loop.start();
  return {
    wake: () => loop.wake(),
    async stop() {
      await loop.stop();
      await Promise.allSettled([...inFlight]);
      sender.close();
    },
  };
}
