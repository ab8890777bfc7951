// Risk covered (issue 47 item 7): a merchant making the platform mail anyone, in bulk. A Test key can
// make a payment paid with any buyer email and the merchant's own text: Test receipts are capped per
// account per hour (beyond the cap, recorded as canceled with the reason, never sent), Live ones are
// not; and a stored address the platform's one email rule refuses (a domain literal, a stray '>') is
// never mailed. Real SMTP to a real server (smtp-server), real PostgreSQL and NATS.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { eventually, testNatsPrefix } from '@hc/test-kit';
import { startMailSink, type MailSink } from '@hc/test-kit/mail';
import { EventPublisher, scope, startNotificationsStack, type NotificationsStack } from './support/notifications-stack.ts';

const CAP = 3;
const logger = createLogger('notifications-test', { level: process.env['TEST_LOG'] ?? 'silent' });
let sink: MailSink;
let stack: NotificationsStack;
let publish: EventPublisher;

beforeAll(async () => {
  sink = await startMailSink();
  const prefix = testNatsPrefix('notif_cap');
  publish = await EventPublisher.connect(prefix);
  stack = await startNotificationsStack(logger, sink, prefix, { TEST_RECEIPTS_PER_ACCOUNT_HOUR: String(CAP) });
});
afterAll(async () => {
  await stack.stop();
  await publish.close();
  await sink.close();
});

const paid = (paymentId: string, accountId: string, customerEmail: string, livemode = false) => ({
  accountId,
  livemode,
  cause: 'vrd_1',
  payment: {
    id: paymentId,
    description: 'Visit https://phish.example now',
    amount: '1.00',
    currency: 'USD',
    customerEmail,
    merchantName: 'Anyone',
    coin: 'polygon_usdc',
    valueCoin: '1.000000',
    txidIn: '0xfeed',
    paidAt: Date.UTC(2026, 10, 25, 1, 25),
  },
});

async function rowsOf(accountId: string): Promise<{ payment_id: string; status: string; last_error: string | null }[]> {
  const { rows } = await stack.db.query<{ payment_id: string; status: string; last_error: string | null }>(
    "SELECT payment_id, status, last_error FROM mails WHERE account_id = $1 AND kind = 'receipt' ORDER BY payment_id",
    [accountId],
  );
  return rows;
}

it(`sends at most ${CAP} Test receipts an account an hour; the rest are canceled with the reason; Live receipts and other accounts are not held back`, async () => {
  for (const account of ['acct_cap', 'acct_cap_other'])
    await stack.client.updateNotificationSettings({ testReceiptsEnabled: true }, scope(account));
  for (let i = 1; i <= CAP + 2; i += 1) await publish.payment('payment.paid', paid(`pay_cap_${i}`, 'acct_cap', `victim${i}@example.com`));
  await publish.payment('payment.paid', paid('pay_cap_live', 'acct_cap', 'live-buyer@example.com', true));
  await publish.payment('payment.paid', paid('pay_cap_other', 'acct_cap_other', 'other@example.com'));

  const rows = await eventually(
    () => rowsOf('acct_cap'),
    (r) => r.length === CAP + 3,
  );
  const test = rows.filter((r) => r.payment_id !== 'pay_cap_live');
  expect(test.filter((r) => r.status === 'canceled')).toEqual([
    { payment_id: `pay_cap_${CAP + 1}`, status: 'canceled', last_error: `Not sent: at most ${CAP} Test receipts an hour per account.` },
    { payment_id: `pay_cap_${CAP + 2}`, status: 'canceled', last_error: `Not sent: at most ${CAP} Test receipts an hour per account.` },
  ]);
  const sent = await eventually(
    async () => sink.mails.filter((m) => /^(victim\d|live-buyer|other)@example\.com$/.test(m.envelopeTo[0] ?? '')),
    (mails) => mails.length === CAP + 2,
  );
  expect(sent.map((m) => m.envelopeTo[0]).sort()).toEqual(
    ['live-buyer@example.com', 'other@example.com', ...Array.from({ length: CAP }, (_, i) => `victim${i + 1}@example.com`)].sort(),
  );
});

it('never mails a stored address the one email rule refuses (a domain literal, a stray >): no receipt is made', async () => {
  await stack.client.updateNotificationSettings({ testReceiptsEnabled: true }, scope('acct_rule'));
  await publish.payment('payment.paid', paid('pay_rule_literal', 'acct_rule', 'a@[127.0.0.1]'));
  await publish.payment('payment.paid', paid('pay_rule_bracket', 'acct_rule', 'a>@example.com'));
  await publish.payment('payment.paid', paid('pay_rule_ok', 'acct_rule', 'fine@example.com'));
  await eventually(
    async () => sink.mails.filter((m) => m.envelopeTo.includes('fine@example.com')),
    (mails) => mails.length === 1,
  );
  for (const id of ['pay_rule_literal', 'pay_rule_bracket'])
    await eventually(
      async () => (await stack.db.query('SELECT 1 FROM processed_messages WHERE msg_id = $1', [`${id}.payment.paid.vrd_1`])).rowCount,
      (n) => n === 1,
    );
  // Both applied, and they made nothing: no row, no mail.
  expect((await rowsOf('acct_rule')).map((r) => r.payment_id)).toEqual(['pay_rule_ok']);
  expect(sink.mails.filter((m) => m.envelopeTo.some((to) => to.includes('127.0.0.1') || to.includes('>')))).toEqual([]);
});
