// Risk covered: a mail lost when the SMTP server refuses for a while, retried forever when it refuses
// for good, or left with the buyer's address after an erasure (the mail log and queued mails), also
// when the payment's event is applied while the erasure commits (each transaction missing the other's
// uncommitted row, raced many times through the use cases as the consumers call them).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { eventually, testNatsPrefix } from '@hc/test-kit';
import { startMailSink, type MailSink } from '@hc/test-kit/mail';
import { buildEvent, CUSTOMER_ERASED } from '@hc/events/contracts';
import { applyPaymentEvent } from '../src/use-cases/apply-payment-event.ts';
import { eraseCustomer } from '../src/use-cases/erase-customer.ts';
import { EventPublisher, paymentEvent, scope, startNotificationsStack, type NotificationsStack } from './support/notifications-stack.ts';

const logger = createLogger('notifications-test', { level: 'silent' });
let sink: MailSink;
let stack: NotificationsStack;
let publish: EventPublisher;

beforeAll(async () => {
  sink = await startMailSink();
  const prefix = testNatsPrefix('notif_delivery');
  publish = await EventPublisher.connect(prefix);
  stack = await startNotificationsStack(logger, sink, prefix);
  await stack.client.updateNotificationSettings({ testReceiptsEnabled: true }, scope('acct_D'));
});
afterAll(async () => {
  await stack.stop();
  await publish.close();
  await sink.close();
});

const paid = (paymentId: string, email: string) => ({
  accountId: 'acct_D',
  cause: 'v',
  payment: { id: paymentId, description: 'Lamp', amount: '40.00', currency: 'EUR', customerEmail: email, customerName: 'Bo Buyer' },
});
const mailRow = async (paymentId: string) =>
  (
    await stack.db.query('SELECT status, attempts, recipient, recipient_name, last_error, erased_at FROM mails WHERE payment_id = $1', [
      paymentId,
    ])
  ).rows[0] as
    | {
        status: string;
        attempts: number;
        recipient: string | null;
        recipient_name: string | null;
        last_error: string | null;
        erased_at: Date | null;
      }
    | undefined;

describe('delivery', () => {
  it('a temporary refusal (451) is retried with backoff until the server takes it, under the same Message-ID', async () => {
    sink.behave({ kind: 'temporary' });
    await publish.payment('payment.paid', paid('pay_retry', 'retry@example.com'));
    const failing = await eventually(
      () => mailRow('pay_retry'),
      (row) => (row?.attempts ?? 0) >= 2 && row?.status === 'queued',
    );
    expect(failing).toMatchObject({ status: 'queued' });
    expect(failing?.last_error).toMatch(/451/);
    sink.behave({ kind: 'accept' });
    const sent = await eventually(
      () => mailRow('pay_retry'),
      (row) => row?.status === 'sent',
    );
    expect(sent).toMatchObject({ status: 'sent', last_error: null });
    expect(sink.mails.filter((m) => m.envelopeTo.includes('retry@example.com'))).toHaveLength(1);
  });

  it('a permanent refusal (550) fails the mail at once, logged with the reason', async () => {
    sink.behave({ kind: 'permanent' });
    await publish.payment('payment.paid', paid('pay_refused', 'refused@example.com'));
    const failed = await eventually(
      () => mailRow('pay_refused'),
      (row) => row?.status === 'failed',
    );
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed?.last_error).toMatch(/550/);
    sink.behave({ kind: 'accept' });
    const log = await stack.client.listMails({}, scope('acct_D'));
    expect(log.mails.find((m) => m.paymentId === 'pay_refused')).toMatchObject({
      status: 'failed',
      recipient: 'refused@example.com',
      attempts: 1,
    });
  });

  it('one slow mailbox holds one of MAIL_CONCURRENCY (4) slots: the mails queued after it are sent meanwhile', async () => {
    await stack.client.updateNotificationSettings({ testReceiptsEnabled: true }, scope('acct_S'));
    sink.behave({ kind: 'delay', ms: 2_000, to: 'slow@example.com' });
    const slowPaid = { ...paid('pay_slow', 'slow@example.com'), accountId: 'acct_S' };
    await publish.payment('payment.paid', slowPaid);
    await eventually(
      () => mailRow('pay_slow'),
      (row) => row?.status === 'sending',
    );
    const quick = Array.from({ length: 6 }, (_, i) => `quick${i}@example.com`);
    for (const [i, email] of quick.entries())
      await publish.payment('payment.paid', { ...paid(`pay_quick${i}`, email), accountId: 'acct_S' });
    const slowMail = await eventually(
      () => Promise.resolve(sink.mails.find((m) => m.envelopeTo.includes('slow@example.com'))),
      (mail) => mail !== undefined,
    );
    sink.behave({ kind: 'accept' });
    expect(slowMail).toBeDefined();
    // Waiting for the slowest mail of each claim, the three quick mails after the first claim of four
    // would have come after the slow one.
    const quickMails = sink.mails.filter((m) => quick.some((email) => m.envelopeTo.includes(email)));
    expect(quickMails).toHaveLength(6);
    expect(quickMails.every((m) => m.receivedAt < slowMail!.receivedAt)).toBe(true);
  });
});

describe('erasure (ADR 0017)', () => {
  it('removes the buyer’s address and name from sent and queued mails, cancels the queued, and a later event of the payment mails nobody', async () => {
    await publish.payment('payment.paid', paid('pay_sent', 'erase-me@example.com'));
    await eventually(
      () => mailRow('pay_sent'),
      (row) => row?.status === 'sent',
    );
    sink.behave({ kind: 'temporary' });
    await publish.payment('payment.paid', paid('pay_queued', 'erase-me@example.com'));
    await eventually(
      () => mailRow('pay_queued'),
      (row) => (row?.attempts ?? 0) >= 1 && row?.status === 'queued',
    );

    await publish.erased('acct_D', 'cus_1', ['pay_sent', 'pay_queued', 'pay_later']);
    await eventually(
      () => mailRow('pay_queued'),
      (row) => row?.status === 'canceled',
    );
    sink.behave({ kind: 'accept' });
    await publish.payment('payment.paid', paid('pay_later', 'erase-me@example.com'));
    await eventually(
      async () => (await stack.db.query("SELECT 1 FROM processed_messages WHERE msg_id = 'pay_later.payment.paid.v'")).rowCount,
      (n) => n === 1,
    );

    expect(await mailRow('pay_sent')).toMatchObject({ status: 'sent', recipient: null, recipient_name: null });
    expect(await mailRow('pay_queued')).toMatchObject({ status: 'canceled', recipient: null, recipient_name: null });
    expect(await mailRow('pay_later')).toBeUndefined();
    // No trace of the buyer in any mail column.
    const { rows } = await stack.db.query("SELECT * FROM mails WHERE payment_id IN ('pay_sent', 'pay_queued', 'pay_later')");
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toMatch(/erase-me@example\.com|Bo Buyer/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.mails.filter((m) => m.envelopeTo.includes('erase-me@example.com'))).toHaveLength(1);
  });

  it('an erasure names its account: another account’s receipts for the same payment ids are untouched', async () => {
    await stack.client.updateNotificationSettings({ testReceiptsEnabled: true }, scope('acct_E'));
    await publish.payment('payment.paid', { ...paid('pay_other', 'keep@example.com'), accountId: 'acct_E' });
    await eventually(
      () => mailRow('pay_other'),
      (row) => row?.status === 'sent',
    );
    await publish.erased('acct_D', 'cus_2', ['pay_other']);
    await eventually(
      async () => (await stack.db.query("SELECT 1 FROM processed_messages WHERE msg_id = 'cus_2.erased'")).rowCount,
      (n) => n === 1,
    );
    expect(await mailRow('pay_other')).toMatchObject({ recipient: 'keep@example.com' });
  });
});

describe('an erasure racing the payment event', () => {
  it('a receipt applied while its buyer is erased keeps no address, whichever commits first', async () => {
    const deps = stack.service.deps;
    for (let round = 0; round < 40; round += 1) {
      const paymentId = `pay_race_${round}`;
      // Live mode: receipts are on without a setting.
      const { id, message } = paymentEvent('payment.paid', {
        accountId: 'acct_race',
        livemode: true,
        payment: { id: paymentId, description: 'Mug', amount: '9.90', currency: 'USD', customerEmail: 'erase-me@example.com' },
      });
      const erasure = buildEvent(CUSTOMER_ERASED, {
        id: `cus_race_${round}.erased`,
        type: 'customer.erased',
        occurredAt: Date.now(),
        accountId: 'acct_race',
        livemode: true,
        customerId: `cus_race_${round}`,
        paymentIds: [paymentId],
        emailRevisions: {},
      });
      await Promise.all([applyPaymentEvent(deps, id, message), eraseCustomer(deps, erasure.id, erasure)]);
    }
    const { rows } = await stack.db.query<{ payment_id: string }>(
      `SELECT payment_id FROM mails WHERE account_id = 'acct_race' AND (recipient IS NOT NULL OR recipient_name IS NOT NULL)`,
    );
    // A receipt whose event committed first may have gone out before the erasure: that is a mail sent
    // before the buyer asked, not a leak. What must not stay is the address in the log.
    expect(rows.map((row) => row.payment_id)).toEqual([]);
  });
});

describe('retries with a long poll', () => {
  it("a refused mail is tried again when due, woken by the worker's own alarm rather than the next poll (a minute here)", async () => {
    const ownSink = await startMailSink();
    const prefix = testNatsPrefix('notif_alarm');
    const ownPublish = await EventPublisher.connect(prefix);
    const slowPoll = await startNotificationsStack(logger, ownSink, prefix, { MAIL_POLL_INTERVAL_MS: '60000', MAIL_MAX_ATTEMPTS: '10' });
    const row = async () =>
      (await slowPoll.db.query('SELECT status, attempts FROM mails WHERE payment_id = $1', ['pay_alarm'])).rows[0] as
        { status: string; attempts: number } | undefined;
    try {
      await slowPoll.client.updateNotificationSettings({ testReceiptsEnabled: true }, scope('acct_D'));
      ownSink.behave({ kind: 'temporary' });
      await ownPublish.payment('payment.paid', paid('pay_alarm', 'alarm@example.com'));
      await eventually(row, (mail) => (mail?.attempts ?? 0) >= 1 && mail?.status === 'queued', 20_000);
      ownSink.behave({ kind: 'accept' });
      // The retry is due in 100–400 ms: within 20 s by alarm, a minute by poll.
      expect(await eventually(row, (mail) => mail?.status === 'sent', 20_000)).toMatchObject({ status: 'sent' });
    } finally {
      await slowPoll.stop();
      await ownPublish.close();
      await ownSink.close();
    }
  });
});
