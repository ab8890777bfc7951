/**
 * What `pnpm bench:pipeline` (pipeline-rate.ts) reads back from the platform's databases: the lag of
 * each payment event from its checkout outbox row (written in the transaction of the state change) to
 * the receiver's answer and, for payment.paid, to the receipt accepted by the mail catcher; and what
 * is still in flight (the backlog).
 */
import { checkoutEventSubject, PAYMENT_EVENTS_SUBJECTS } from '@hc/events/contracts';
import { webhookEventId } from '../../../services/webhooks/src/domain/event-id.ts';
import { spread, type Spread } from './open-loop.ts';
import { serviceDatabases, type OwnPlatform } from './own-platform.ts';
import { rows } from './pipeline.ts';
import type { BenchReceiver } from './webhook-receiver.ts';

/** `checkout.payment.` and `checkout.payment.paid.`: outbox subjects carry no NATS prefix. */
const PAYMENT_PREFIX = PAYMENT_EVENTS_SUBJECTS.slice(0, -1);
const PAID_PREFIX = checkoutEventSubject('payment.paid', '');
const PAYMENT_EVENTS = `subject LIKE '${PAYMENT_PREFIX}%'`;
const PAID_EVENTS = `subject LIKE '${PAID_PREFIX}%'`;

async function count(databaseUrl: string, sql: string): Promise<number> {
  return Number((await rows(databaseUrl, sql))[0]?.[0] ?? Number.NaN);
}

export interface Backlog {
  /** Payment events in checkout's outbox whose webhook the receiver has not answered yet. */
  webhooksUnanswered: number;
  /** Webhook deliveries still pending or being attempted. */
  deliveriesPending: number;
  /** Mail rows not yet accepted by the catcher. */
  mailsUnsent: number;
  /** The unsent mails by status, with one of their last errors: why they wait. */
  mailStates: string;
  /** payment.paid events with no receipt row yet (the notifications consumer is behind). */
  paidWithoutMail: number;
  /** Outbox rows not yet published, every service's outbox together. */
  outboxUnpublished: number;
}

const databases = (platform: OwnPlatform): string[] => serviceDatabases(platform).map(([, url]) => url);

export async function backlog(platform: OwnPlatform, receiver: BenchReceiver): Promise<Backlog> {
  const env = platform.setting.env;
  const checkout = env['CHECKOUT_DATABASE_URL']!;
  const notifications = env['NOTIFICATIONS_DATABASE_URL']!;
  let outboxUnpublished = 0;
  for (const url of databases(platform)) {
    if ((await count(url, "SELECT count(*) FROM pg_tables WHERE tablename = 'outbox_messages'")) === 0) continue;
    outboxUnpublished += await count(url, 'SELECT count(*) FROM outbox_messages WHERE published_at IS NULL');
  }
  const paid = await count(checkout, `SELECT count(*) FROM outbox_messages WHERE ${PAID_EVENTS}`);
  return {
    webhooksUnanswered: (await count(checkout, `SELECT count(*) FROM outbox_messages WHERE ${PAYMENT_EVENTS}`)) - receiver.answered.size,
    deliveriesPending: await count(
      env['WEBHOOKS_DATABASE_URL']!,
      "SELECT count(*) FROM webhook_deliveries WHERE status IN ('pending', 'delivering')",
    ),
    mailsUnsent: await count(notifications, 'SELECT count(*) FROM mails WHERE sent_at IS NULL'),
    mailStates: (
      await rows(notifications, "SELECT status, count(*), coalesce(max(last_error), '-') FROM mails WHERE sent_at IS NULL GROUP BY status")
    )
      .map(([status, n, ...error]) => `${status} ${n} (${error.join(' ').slice(0, 120)})`)
      .join(', '),
    paidWithoutMail: paid - (await count(notifications, "SELECT count(*) FROM mails WHERE kind = 'receipt'")),
    outboxUnpublished,
  };
}

/** Webhook lag (outbox row → receiver answered) and mail lag (payment.paid's outbox row → receipt sent). */
export async function lags(platform: OwnPlatform, receiver: BenchReceiver): Promise<{ webhook: Spread; mail: Spread }> {
  const env = platform.setting.env;
  const events = await rows(
    env['CHECKOUT_DATABASE_URL']!,
    `SELECT msg_id, subject, extract(epoch from created_at) * 1000 FROM outbox_messages WHERE ${PAYMENT_EVENTS}`,
  );
  const webhook: number[] = [];
  const paidAt = new Map<string, number>();
  for (const [msgId, subject, at] of events) {
    const answered = receiver.answered.get(webhookEventId(msgId!));
    if (answered !== undefined) webhook.push(answered - Number(at));
    if (subject!.startsWith(PAID_PREFIX)) paidAt.set(subject!.slice(PAID_PREFIX.length), Number(at));
  }
  const sent = await rows(
    env['NOTIFICATIONS_DATABASE_URL']!,
    "SELECT payment_id, extract(epoch from sent_at) * 1000 FROM mails WHERE kind = 'receipt' AND sent_at IS NOT NULL",
  );
  const mail = sent.flatMap(([paymentId, at]) => (paidAt.has(paymentId!) ? [Number(at) - paidAt.get(paymentId!)!] : []));
  return { webhook: spread(webhook), mail: spread(mail) };
}
