import { newId } from '@hc/ids';
import type { SecretContext } from '@hc/secrets';
import { messageIdOf, type MailKind, type MailRecord, type MailStatus, type NewMail } from '../domain/mail.ts';
import type { Sql } from './database.ts';

interface MailRow {
  id: string;
  account_id: string;
  livemode: boolean;
  kind: MailKind;
  status: MailStatus;
  recipient: string | null;
  recipient_name: string | null;
  sender_name: string;
  subject: string;
  text_body: string;
  html_body: string;
  message_id: string;
  payment_id: string | null;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
  sealed_link: string | null;
}

/** A mail the worker claimed: everything it needs to hand it to SMTP. */
export interface ClaimedMail extends MailRecord {
  readonly recipient: string;
  readonly recipientName: string | null;
  readonly senderName: string;
  readonly text: string;
  readonly html: string;
  readonly messageId: string;
  /** An invitation's link, sealed (bound to this row); the worker opens it and puts it in the bodies. */
  readonly sealedLink: string | null;
}

/** Where an invitation's sealed link is: bound to its row, so a value copied to another mail does not open. */
export function sealedLinkContext(mailId: string): SecretContext {
  return { table: 'mails', column: 'sealed_link', row: mailId };
}

function recordOf(row: MailRow): MailRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    livemode: row.livemode,
    kind: row.kind,
    status: row.status,
    recipient: row.recipient,
    subject: row.subject,
    paymentId: row.payment_id,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  };
}

/** The mails table: the outbox of mails (queued → sending → sent | failed | canceled) and their log. */
export class MailStore {
  private readonly from: string;

  constructor(from: string) {
    this.from = from;
  }

  /** Mails not yet sent (queued, or being sent) and the age of the oldest: the hc.queue.* gauges. */
  async backlog(sql: Sql): Promise<{ rows: number; oldestAgeSeconds: number }> {
    const { rows } = await sql.query<{ rows: number; age: number }>(
      `SELECT count(*)::int AS rows, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS age
         FROM mails WHERE status IN ('queued', 'sending')`,
    );
    return { rows: rows[0]?.rows ?? 0, oldestAgeSeconds: rows[0]?.age ?? 0 };
  }

  /** Queues a mail unless one of its cause exists (dedupe_key); true when queued now. */
  async queue(sql: Sql, mail: NewMail): Promise<boolean> {
    return (await this.insert(sql, newId('mail'), mail, null)) === 1;
  }

  /**
   * Queues a mail that carries a secret (an invitation's link): `seal` gets the new row's id and
   * returns the sealed secret, stored beside the bodies (null: this mail carries none). The id of the
   * mail of this cause: the one queued now, or the one queued before (a repeated call).
   */
  async queueSealed(sql: Sql, mail: NewMail, seal: ((mailId: string) => string) | null): Promise<string> {
    const id = newId('mail');
    if ((await this.insert(sql, id, mail, seal ? seal(id) : null)) === 1) return id;
    const { rows } = await sql.query<{ id: string }>('SELECT id FROM mails WHERE dedupe_key = $1', [mail.dedupeKey]);
    return rows[0]!.id;
  }

  private async insert(sql: Sql, id: string, mail: NewMail, sealedLink: string | null): Promise<number> {
    const { rowCount } = await sql.query(
      `INSERT INTO mails (id, account_id, livemode, kind, dedupe_key, payment_id, recipient, recipient_name, sender_name, subject, text_body, html_body, message_id, sealed_link, status, last_error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) ON CONFLICT (dedupe_key) DO NOTHING`,
      [
        id,
        mail.accountId,
        mail.livemode,
        mail.kind,
        mail.dedupeKey,
        mail.paymentId,
        mail.recipient,
        mail.recipientName,
        mail.senderName,
        mail.content.subject,
        mail.content.text,
        mail.content.html,
        messageIdOf(id, this.from),
        sealedLink,
        mail.canceledBecause === undefined ? 'queued' : 'canceled',
        mail.canceledBecause ?? null,
      ],
    );
    return rowCount ?? 0;
  }

  /**
   * Takes up to `limit` due mails for sending: queued ones whose time came, and sending ones whose
   * lease ran out (their worker died). The lease is taken and the attempt counted in the same
   * statement; SKIP LOCKED keeps two workers off one mail.
   */
  async claimDue(sql: Sql, limit: number, leaseMs: number): Promise<ClaimedMail[]> {
    const { rows } = await sql.query<MailRow>(
      `UPDATE mails SET status = 'sending', lease_until = now() + $2 * interval '1 millisecond', attempts = attempts + 1
        WHERE id IN (
          SELECT id FROM mails
           WHERE recipient IS NOT NULL
             AND ((status = 'queued' AND next_attempt_at <= now()) OR (status = 'sending' AND lease_until < now()))
           ORDER BY next_attempt_at, id
           LIMIT $1
           FOR UPDATE SKIP LOCKED)
        RETURNING *`,
      [limit, leaseMs],
    );
    return rows.map((row) => ({
      ...recordOf(row),
      recipient: row.recipient ?? '',
      recipientName: row.recipient_name,
      senderName: row.sender_name,
      text: row.text_body,
      html: row.html_body,
      messageId: row.message_id,
      sealedLink: row.sealed_link,
    }));
  }

  /**
   * Right after the server's 250: one statement, the whole of the window a crash sends twice in. An
   * invitation's sealed link goes with it: a sent mail needs it no more.
   */
  async markSent(sql: Sql, id: string): Promise<void> {
    await sql.query(
      `UPDATE mails SET status = 'sent', sent_at = now(), lease_until = NULL, last_error = NULL, sealed_link = NULL
        WHERE id = $1 AND status = 'sending'`,
      [id],
    );
  }

  /**
   * A failed attempt: again after `delayMs`, or failed for good. A mail whose buyer was erased
   * meanwhile is canceled. A mail given up drops its sealed link (nothing will send it).
   */
  async markAttemptFailed(sql: Sql, id: string, error: string, retryInMs: number | null): Promise<void> {
    await sql.query(
      `UPDATE mails SET
          status = CASE WHEN recipient IS NULL THEN 'canceled' WHEN $3::bigint IS NULL THEN 'failed' ELSE 'queued' END,
          next_attempt_at = CASE WHEN $3::bigint IS NULL THEN next_attempt_at ELSE now() + $3::bigint * interval '1 millisecond' END,
          sealed_link = CASE WHEN recipient IS NOT NULL AND $3::bigint IS NOT NULL THEN sealed_link END,
          lease_until = NULL, last_error = $2
        WHERE id = $1 AND status = 'sending'`,
      [id, error, retryInMs],
    );
  }

  /** Newest first, in one account and mode; `startingAfter` must be one of its mails. */
  async list(sql: Sql, accountId: string, livemode: boolean, limit: number, startingAfter: string | null): Promise<MailRecord[]> {
    const { rows } = await sql.query<MailRow>(
      `SELECT * FROM mails WHERE account_id = $1 AND livemode = $2 AND ($4::text IS NULL OR id < $4)
        ORDER BY id DESC LIMIT $3`,
      [accountId, livemode, limit, startingAfter],
    );
    return rows.map(recordOf);
  }

  async exists(sql: Sql, accountId: string, livemode: boolean, id: string): Promise<boolean> {
    const { rowCount } = await sql.query('SELECT 1 FROM mails WHERE id = $1 AND account_id = $2 AND livemode = $3', [
      id,
      accountId,
      livemode,
    ]);
    return rowCount === 1;
  }

  /**
   * Erasure of the buyers of these payments (ADR 0017): their receipts lose address and name, queued
   * ones are canceled (nothing to send them to), and the payments are remembered so a later event of
   * theirs makes no receipt. Alerts go to the merchant and carry no buyer data: left as they are.
   * Only the account's own payments: an erasure names its account.
   */
  async erasePayments(sql: Sql, accountId: string, paymentIds: readonly string[]): Promise<number> {
    // In sorted order, so two erasures sharing payments cannot deadlock on each other.
    for (const paymentId of [...new Set(paymentIds)].sort()) await this.lockPayment(sql, paymentId);
    await sql.query('INSERT INTO erased_payments (payment_id) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [paymentIds]);
    const { rowCount } = await sql.query(
      `UPDATE mails SET recipient = NULL, recipient_name = NULL, erased_at = now(),
              status = CASE WHEN status = 'queued' THEN 'canceled' ELSE status END
        WHERE account_id = $1 AND kind = 'receipt' AND payment_id = ANY($2::text[]) AND erased_at IS NULL`,
      [accountId, paymentIds],
    );
    return rowCount ?? 0;
  }

  /**
   * Serializes, until the transaction ends, what decides whether a payment's buyer gets a receipt:
   * an event queuing one and an erasure of the buyer. Without it the event could find the payment not
   * erased while the erasure commits, and the erasure could not see the receipt the event had not
   * committed yet: the receipt would be queued with the address (test/delivery.int.test.ts).
   */
  /**
   * Test receipts of the account queued (not canceled) in the last hour, counted under a lock of the
   * account's Test receipts held to the end of the transaction: two events at once cannot both take
   * the last one of the hour.
   */
  async testReceiptsInLastHour(sql: Sql, accountId: string): Promise<number> {
    await sql.query(`SELECT pg_advisory_xact_lock(hashtext('hc-notifications-test-receipts'), hashtext($1))`, [accountId]);
    const { rows } = await sql.query<{ count: string }>(
      `SELECT count(*) FROM mails
        WHERE account_id = $1 AND livemode = false AND kind = 'receipt' AND status <> 'canceled'
          AND created_at > now() - interval '1 hour'`,
      [accountId],
    );
    return Number(rows[0]!.count);
  }

  async lockPayment(sql: Sql, paymentId: string): Promise<void> {
    await sql.query(`SELECT pg_advisory_xact_lock(hashtext('hc-notifications-payment'), hashtext($1))`, [paymentId]);
  }

  async isErased(sql: Sql, paymentId: string): Promise<boolean> {
    const { rowCount } = await sql.query('SELECT 1 FROM erased_payments WHERE payment_id = $1', [paymentId]);
    return rowCount === 1;
  }
}
