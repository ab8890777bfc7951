// Risk covered: a buyer who is promised a receipt gets none, gets two, gets one for a Test payment of an
// account that did not ask, or gets another account's; a receipt whose words or links are wrong or
// unescaped; a receipt not in the payment's locale (issue 49, docs/adr/0089) or telling a card buyer
// about coins and chains. Mail goes over real SMTP to a real server (smtp-server) and is read back by mailparser.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { eventually, testNatsPrefix } from '@hc/test-kit';
import { startMailSink, type MailSink } from '@hc/test-kit/mail';
import { EventPublisher, scope, startNotificationsStack, type NotificationsStack } from './support/notifications-stack.ts';

const publicCall = { requestId: 'req_pages' };
const logger = createLogger('notifications-test', { level: process.env['TEST_LOG'] ?? 'silent' });
let sink: MailSink;
let stack: NotificationsStack;
let publish: EventPublisher;

beforeAll(async () => {
  sink = await startMailSink();
  const prefix = testNatsPrefix('notif');
  publish = await EventPublisher.connect(prefix);
  stack = await startNotificationsStack(logger, sink, prefix);
});
afterAll(async () => {
  await stack.stop();
  await publish.close();
  await sink.close();
});

const paid = (paymentId: string, accountId: string, extra: Record<string, unknown> = {}) => ({
  accountId,
  cause: 'vrd_1',
  payment: {
    id: paymentId,
    description: 'Blue <mug> & "saucer"',
    amount: '19.90',
    currency: 'USD',
    reference: 'ORD-1001',
    customerEmail: 'ann@example.com',
    customerName: 'Ann Lee',
    merchantName: 'Mug & Co',
    coin: 'polygon_usdc',
    valueCoin: '19.303000',
    txidIn: '0xfeed',
    paidAt: Date.UTC(2026, 10, 25, 1, 25),
    ...extra,
  },
});

const mailsTo = (address: string) => sink.mails.filter((m) => m.envelopeTo.includes(address));
/** The mails to `address` once there are `count` (or after 10 s). */
const received = (address: string, count: number) =>
  eventually(
    async () => mailsTo(address),
    (mails) => mails.length >= count,
  );
/** 1 once the notifications consumer recorded the message as applied. */
const processed = (msgId: string) =>
  eventually(
    async () => (await stack.db.query('SELECT 1 FROM processed_messages WHERE msg_id = $1', [msgId])).rowCount,
    (n) => n === 1,
  );

describe('receipts', () => {
  it('a Test payment gets no receipt until the account turns Test receipts on; the pages are told the same', async () => {
    expect((await stack.policy.getReceiptPolicy({ accountId: 'acct_A', livemode: false }, publicCall)).receiptsSent).toBe(false);
    expect((await stack.policy.getReceiptPolicy({ accountId: 'acct_A', livemode: true }, publicCall)).receiptsSent).toBe(true);
    await publish.payment('payment.paid', paid('pay_off', 'acct_A', { customerEmail: 'off@example.com' }));
    expect(await processed('pay_off.payment.paid.vrd_1')).toBe(1);

    const { settings } = await stack.client.updateNotificationSettings({ testReceiptsEnabled: true }, scope('acct_A'));
    expect(settings?.testReceiptsEnabled).toBe(true);
    expect((await stack.policy.getReceiptPolicy({ accountId: 'acct_A', livemode: false }, publicCall)).receiptsSent).toBe(true);
    await publish.payment('payment.paid', paid('pay_on', 'acct_A'));
    expect(await received('ann@example.com', 1)).toHaveLength(1);
    expect(mailsTo('off@example.com')).toHaveLength(0);
  });

  it('the receipt: sender, subject, both bodies, escaped merchant text, stable Message-ID', async () => {
    const [mail] = mailsTo('ann@example.com');
    const parsed = mail!.parsed;
    expect(parsed.from?.value[0]).toEqual({ name: 'Mug & Co', address: 'receipts@pay.example' });
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value[0] : undefined).toEqual({
      name: 'Ann Lee',
      address: 'ann@example.com',
    });
    expect(parsed.subject).toBe('[Test] Receipt from Mug & Co: $19.90');
    expect(mail!.messageId).toMatch(/^<mail_[0-9A-Z]{26}@pay\.example>$/);
    const text = parsed.text ?? '';
    for (const words of [
      'Receipt from Mug & Co',
      'Amount: $19.90',
      'Blue <mug> & "saucer"',
      'pay_on',
      'ORD-1001',
      'Nov 25, 2026, 01:25',
      'https://pay.example/pay/pay_on',
      'Test mode',
    ]) {
      expect(text).toContain(words);
    }
    // Plain words for a card buyer: what arrived on chain and its transaction are the merchant's.
    expect(text).not.toMatch(/USDC|Polygon|0xfeed|chain|coin/i);
    const html = typeof parsed.html === 'string' ? parsed.html : '';
    expect(html).toContain('Blue &lt;mug&gt; &amp; &quot;saucer&quot;');
    expect(html).not.toContain('<mug>');
    expect(html).toContain('href="https://pay.example/pay/pay_on"');
    // The server holds the mail before the sender records it as sent: wait for the row, do not race it.
    const rows = await eventually(
      async () => (await stack.db.query('SELECT status, message_id FROM mails WHERE payment_id = $1', ['pay_on'])).rows,
      (found) => found[0]?.status === 'sent',
    );
    expect(rows).toEqual([{ status: 'sent', message_id: mail!.messageId }]);
  });

  it('speaks the payment’s locale: words, amount and date; Arabic right to left; English when none or unknown', async () => {
    await stack.client.updateNotificationSettings({ testReceiptsEnabled: true }, scope('acct_L'));
    await publish.payment('payment.paid', paid('pay_de', 'acct_L', { customerEmail: 'de@example.com', locale: 'de' }));
    await publish.payment('payment.paid', paid('pay_ar', 'acct_L', { customerEmail: 'ar@example.com', locale: 'ar' }));
    await publish.payment('payment.paid', paid('pay_xx', 'acct_L', { customerEmail: 'xx@example.com', locale: 'xx' }));
    // Intl writes no-break spaces (U+00A0, U+202F) inside amounts and dates.
    const spaced = (text: string | undefined) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');
    const [de] = await received('de@example.com', 1);
    expect(spaced(de!.parsed.subject)).toBe('[Test] Quittung von Mug & Co: 19,90 $');
    for (const words of ['Vielen Dank für Ihre Zahlung.', 'Betrag: 19,90 $', '25. Nov. 2026, 01:25 UTC', 'Testmodus'])
      expect(spaced(de!.parsed.text)).toContain(words);
    expect(de!.parsed.html).toContain('<html lang="de" dir="ltr">');
    const [ar] = await received('ar@example.com', 1);
    expect(ar!.parsed.subject).toContain('إيصال من Mug & Co');
    expect(ar!.parsed.html).toContain('<html lang="ar" dir="rtl">');
    const [xx] = await received('xx@example.com', 1);
    expect(xx!.parsed.subject).toBe('[Test] Receipt from Mug & Co: $19.90');
  });

  it('once per payment: a redelivered or second paid event of the payment sends nothing more', async () => {
    await publish.payment('payment.paid', paid('pay_on', 'acct_A'));
    await publish.payment('payment.paid', { ...paid('pay_on', 'acct_A'), cause: 'accepted' });
    expect(await processed('pay_on.payment.paid.accepted')).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo('ann@example.com')).toHaveLength(1);
  });

  it('the mail log is the account’s own, in its mode; another account sees none of it', async () => {
    const mine = await stack.client.listMails({ limit: 10 }, scope('acct_A'));
    expect(mine.mails.map((m) => [m.kind, m.status, m.recipient, m.paymentId])).toEqual([['receipt', 'sent', 'ann@example.com', 'pay_on']]);
    expect((await stack.client.listMails({ limit: 10 }, scope('acct_B'))).mails).toEqual([]);
    expect((await stack.client.listMails({ limit: 10 }, scope('acct_A', true))).mails).toEqual([]);
    await expect(stack.client.listMails({ limit: 10, startingAfter: mine.mails[0]!.id }, scope('acct_B'))).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
  });

  it('a bad alert address is invalid_email on its field; empty removes it', async () => {
    await expect(
      stack.client.updateNotificationSettings({ alertAddress: 'not an address\r\nBcc: x@y.z' }, scope('acct_A')),
    ).rejects.toMatchObject({ code: 'invalid_email', field: 'alert_address' });
    const set = await stack.client.updateNotificationSettings({ alertAddress: ' Ops@Shop.Example ' }, scope('acct_A'));
    expect(set.settings?.alertAddress).toBe('ops@shop.example');
    const cleared = await stack.client.updateNotificationSettings({ alertAddress: '' }, scope('acct_A'));
    expect(cleared.settings?.alertAddress).toBe('');
  });
});

describe('merchant alerts', () => {
  it('a held payment alerts the alert address once, with the reason, whether it can be accepted, and the dashboard link', async () => {
    await stack.client.updateNotificationSettings({ alertAddress: 'ops@shop.example' }, scope('acct_H'));
    await publish.payment('payment.held', {
      accountId: 'acct_H',
      cause: 'vrd_h',
      payment: {
        id: 'pay_held',
        description: 'Kettle',
        amount: '21.55',
        currency: 'USD',
        holdReason: '18.40 USDC arrived, 19.40 needed (90% of 21.55 USD).',
        holdAcceptable: true,
      },
    });
    expect(await received('ops@shop.example', 1)).toHaveLength(1);
    const parsed = mailsTo('ops@shop.example')[0]!.parsed;
    expect(parsed.subject).toBe('[Test] Payment held: 21.55 USD (pay_held)');
    expect(parsed.text).toContain('18.40 USDC arrived, 19.40 needed (90% of 21.55 USD).');
    expect(parsed.text).toContain('You can accept it as paid');
    expect(parsed.text).toContain('https://pay.example/dashboard/test/payments/pay_held');
  });

  it('turned off, no held alert; a Live payment paid after expiry alerts as late', async () => {
    await stack.client.updateNotificationSettings({ alertAddress: 'late@shop.example', alertPaymentHeld: false }, scope('acct_L'));
    await publish.payment('payment.held', {
      accountId: 'acct_L',
      cause: 'v1',
      payment: { id: 'pay_h2', description: 'Tea', amount: '5.00', currency: 'EUR', holdReason: 'Wrong coin', holdAcceptable: false },
    });
    const expired = Date.now() - 60_000;
    await publish.payment('payment.paid', {
      accountId: 'acct_L',
      livemode: true,
      cause: 'v2',
      payment: { id: 'pay_late', description: 'Tea', amount: '5.00', currency: 'EUR', expiresAt: expired, paidAt: Date.now() },
    });
    expect(await received('late@shop.example', 1)).toHaveLength(1);
    expect(mailsTo('late@shop.example')[0]!.parsed.subject).toBe('Paid after expiry: 5.00 EUR (pay_late)');
  });
});

describe('webhook endpoint alerts (docs/adr/0049)', () => {
  it('a failing endpoint alerts once, a disabled one again; turned off, nothing', async () => {
    await stack.client.updateNotificationSettings({ alertAddress: 'dev@shop.example' }, scope('acct_W'));
    await publish.endpointAlert('acct_W', 'endpoint.failing', 'we_1', { failingSince: Date.UTC(2026, 10, 24, 19, 0) });
    await publish.endpointAlert('acct_W', 'endpoint.failing', 'we_1', { failingSince: Date.UTC(2026, 10, 24, 19, 0) });
    await publish.endpointAlert('acct_W', 'endpoint.disabled', 'we_1', { disabledReason: 'gone' });
    const mails = await received('dev@shop.example', 2);
    expect(mails.map((m) => m.parsed.subject)).toEqual([
      '[Test] Webhook endpoint failing: https://shop.example/hooks',
      '[Test] Webhook endpoint disabled: https://shop.example/hooks',
    ]);
    expect(mails[0]!.parsed.text).toContain('Failing since 24 Nov 2026, 19:00 UTC.');
    expect(mails[1]!.parsed.text).toContain('It answered 410 Gone');
    expect(mails[1]!.parsed.text).toContain('https://pay.example/dashboard/test/developers/endpoints/we_1');

    await stack.client.updateNotificationSettings({ alertWebhookFailing: false }, scope('acct_W'));
    const off = await publish.endpointAlert('acct_W', 'endpoint.failing', 'we_2');
    expect(await processed(off)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo('dev@shop.example')).toHaveLength(2);
  });
});
