// Risk covered: a receipt sent twice because its database was away — restarting, or failing over to the
// standby (docs/adr/0091) — when the SMTP server's 250 came back: the row could not be marked sent,
// stayed `sending`, and was sent again when its lease ran out (ADR 0048's window, stretched from one
// round trip to the whole outage; the e2e failover test once caught it). A real PostgreSQL of the
// test's own is stopped like a crash while the mails are in flight and started again before their
// leases end: every mail must arrive once, by Message-ID, and be marked sent.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ensureDatabase, migrateDatabase, withDatabase } from '@hc/db';
import { createLogger } from '@hc/logging';
import { eventually, openTestPool, startDisposablePostgres, testNatsPrefix, type DisposablePostgres } from '@hc/test-kit';
import { startMailSink, type MailSink } from '@hc/test-kit/mail';
import type pg from 'pg';
import { loadNotificationsConfig } from '../src/config.ts';
import { NOTIFICATIONS_MIGRATIONS_DIR } from '../src/migrations.ts';
import { startNotificationsService, type RunningNotificationsService } from '../src/notifications-service.ts';
import { EventPublisher, fastEnv } from './support/notifications-stack.ts';

const PAYMENTS = ['pay_away_1', 'pay_away_2', 'pay_away_3'];
const LEASE_MS = 12_000;

let postgres: DisposablePostgres;
let sink: MailSink;
let publish: EventPublisher;
let service: RunningNotificationsService | undefined;
let db: pg.Pool;

beforeAll(async () => {
  postgres = await startDisposablePostgres();
  sink = await startMailSink();
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await publish?.close();
  await db?.end().catch(() => undefined);
  await sink.close();
  await postgres.stop();
});

/** The rows' statuses; undefined while the database is away. */
async function statuses(): Promise<string[] | undefined> {
  try {
    return (await db.query<{ status: string }>('SELECT status FROM mails ORDER BY payment_id')).rows.map((row) => row.status);
  } catch {
    return undefined;
  }
}

it('a mail whose 250 came while the database was away is marked sent once it is back, and never sent again', async () => {
  const url = withDatabase(postgres.url, 'notifications');
  await ensureDatabase(url);
  await migrateDatabase(url, NOTIFICATIONS_MIGRATIONS_DIR);
  db = openTestPool(url, 2);
  db.on('error', () => undefined);
  await db.query("INSERT INTO notification_settings (account_id, test_receipts_enabled) VALUES ('acct_W', true)");
  const prefix = testNatsPrefix('notif_away');
  publish = await EventPublisher.connect(prefix);
  const config = loadNotificationsConfig({
    ...fastEnv(sink, prefix, url),
    MAIL_CONCURRENCY: '4',
    MAIL_LEASE_MS: String(LEASE_MS),
    SMTP_TIMEOUT_MS: '5000',
  });
  service = await startNotificationsService(config, createLogger('notifications-test', { level: 'silent' }));

  // The server holds each 250 for 1.5 s: the database goes away while the mails are in flight.
  sink.behave({ kind: 'delay', ms: 1_500 });
  for (const id of PAYMENTS)
    await publish.payment('payment.paid', {
      accountId: 'acct_W',
      cause: 'v',
      payment: { id, description: 'Lamp', amount: '40.00', currency: 'EUR', customerEmail: `${id}@example.com`, customerName: 'Bo' },
    });
  // The first mail in flight (the worker takes the others once its batch is done): the database goes away.
  const sending = await eventually(statuses, (s) => s?.includes('sending') === true, 20_000);
  expect(sending).toContain('sending');
  await postgres.restart(3_000);

  const sent = await eventually(statuses, (s) => s?.length === PAYMENTS.length && s.every((x) => x === 'sent'), 30_000);
  expect(sent).toEqual(PAYMENTS.map(() => 'sent'));
  // Past every lease: a row left `sending` would have been sent again by now.
  await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 2_000));
  const byMessageId = new Map<string, number>();
  for (const mail of sink.mails) byMessageId.set(mail.messageId, (byMessageId.get(mail.messageId) ?? 0) + 1);
  expect([...byMessageId.values()]).toEqual(PAYMENTS.map(() => 1));
}, 120_000);
