// Risk covered: a payment link that can be canceled once paid, or cannot be canceled while a buyer is at
// a provider and nobody has paid (issue 47, docs/adr/0081), a canceled link
// that can still be started, a cancel without its event, a link that ignores its own lifetime, a bad
// request that writes half a link, a link canceled across accounts — over real gRPC, PostgreSQL and
// JetStream (the events as published, with the webhook fields of a link filled). Also the merchant's
// buyer `locale` on create (issue 49, docs/adr/0089) lost on the way — not stored, not on the read, the
// hosted view or the payment event the receipt is mailed from — or an unlisted one accepted.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import { newId } from '@hc/ids';
import { createLogger } from '@hc/logging';
import { CheckoutAdminService, CheckoutService, HostedCheckoutService } from '@hc/proto/checkout/v1';
import type { PaymentEvent } from '../src/domain/payment-events.ts';
import { expireDuePayments } from '../src/use-cases/expire-due-payments.ts';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';
import { logPaymentEvents, type PaymentEventLog } from './support/payment-event-log.ts';

const logger = createLogger('links-test', { level: 'silent' });
const test: CallContext = { accountId: 'acct_K', livemode: false, requestId: 'req_k' };
const other: CallContext = { accountId: 'acct_O', livemode: false, requestId: 'req_o' };
const account = { payoutWallet: '0x3333333333333333333333333333333333333333', feeBps: 150, merchantName: 'Kiln & Co' };
const HOUR = 60 * 60 * 1000;
let stack: CheckoutStack;
let admin: ServiceClient<typeof CheckoutAdminService>;
let checkout: ServiceClient<typeof CheckoutService>;
let hosted: ServiceClient<typeof HostedCheckoutService, PublicCallContext>;
const buyer: PublicCallContext = { requestId: 'req_buyer' };
let events: PaymentEventLog;

beforeAll(async () => {
  stack = await startCheckoutStack(logger, { label: 'links', publicBaseUrl: 'https://pay.example.test' });
  for (const { accountId } of [test, other]) {
    await stack.putAccount({ id: accountId, name: account.merchantName, payoutWallet: account.payoutWallet, feeBps: account.feeBps });
  }
  admin = createServiceClient(CheckoutAdminService, stack.checkout.address);
  checkout = createServiceClient(CheckoutService, stack.checkout.address);
  hosted = createServiceClient<typeof HostedCheckoutService, PublicCallContext>(HostedCheckoutService, stack.checkout.address);
  events = await logPaymentEvents(stack, 'links', logger);
});

afterAll(async () => {
  await events.stop();
  admin.close();
  checkout.close();
  hosted.close();
  await stack.stop();
});

const eventsOf = (paymentId: string, count: number): Promise<PaymentEvent[]> => events.atLeast(paymentId, count);

async function newLink(extra: { lifetime?: string; customerEmail?: string } = {}) {
  const { payment: link } = await admin.createPaymentLink(
    { amount: '42.5', currency: 'eur', description: 'Vase', customerName: 'Ada Lovelace', memo: 'Thanks for the order', account, ...extra },
    test,
  );
  return link!;
}

describe('payment links', () => {
  it('are payments with source payment_link, their own lifetime, and the link fields on every webhook', async () => {
    const link = await newLink({ customerEmail: 'ada@example.com' });
    const payment = link!;
    expect(payment.id).toMatch(/^pay_/);
    expect(payment.amount).toBe('42.50');
    expect(payment.url).toBe(`https://pay.example.test/pay/${payment.id}`);
    expect(link.trackingUrl).toBe(`https://pay.example.test/track/${payment.id}`);
    expect(Number(payment.expiresAt - payment.createdAt)).toBe(7 * 24 * 3600 * 1000);
    // The buyer pays on the hosted page, which shows who it is for and the memo.
    const { session: view } = await hosted.getHostedSession({ id: payment.id }, buyer);
    expect(view).toMatchObject({ customerName: 'Ada Lovelace', memo: 'Thanks for the order' });
    await hosted.startHostedSession({ id: payment.id }, buyer);
    await hosted.simulateHostedPayment({ id: payment.id, outcome: 'paid' }, buyer);
    const [started, paid] = await eventsOf(payment.id, 2);
    expect([started?.type, paid?.type]).toEqual(['payment.started', 'payment.paid']);
    expect(paid!.payment).toMatchObject({
      source: 'payment_link',
      customerName: 'Ada Lovelace',
      memo: 'Thanks for the order',
      trackingUrl: link.trackingUrl,
      canceledAt: null,
      checkoutId: null,
      status: 'paid',
    });
    // Listed among the account's links, and among its payments like any other.
    const { payments: links } = await admin.listPaymentLinks({ limit: 100 }, test);
    expect(links.map((l) => l.id)).toContain(payment.id);
    const { data: payments } = await checkout.listPayments({ limit: 100 }, test);
    expect(payments.map((p) => p.id)).toContain(payment.id);
  });

  it('canceled before anyone went to a provider: expired with canceled_at, payment.canceled, start answers canceled', async () => {
    const link = await newLink({ customerEmail: 'ada@example.com' });
    const id = link!.id;
    await hosted.startHostedSession({ id }, buyer);
    const { payment: canceled } = await admin.cancelPaymentLink({ id }, test);
    expect(canceled!.status).toBe('expired');
    expect(canceled!.canceledAt).toBeDefined();
    // Canceling again changes nothing and publishes nothing.
    const { payment: again } = await admin.cancelPaymentLink({ id }, test);
    expect(again!.canceledAt).toBe(canceled!.canceledAt);
    const { payment } = await checkout.getCheckoutSession({ id }, test).then((r) => ({ payment: r.payment }));
    expect(payment!.status).toBe('expired');
    await expect(hosted.startHostedSession({ id }, buyer)).rejects.toMatchObject({ code: 'canceled' });
    await expect(checkout.startCheckoutSession({ id, account }, test)).rejects.toMatchObject({ code: 'canceled' });
    const mine = await eventsOf(id, 2);
    expect(mine.map((e) => e.type)).toEqual(['payment.started', 'payment.canceled']);
    expect(mine[1]!.payment).toMatchObject({ status: 'expired', source: 'payment_link' });
    // Milliseconds on the event and on the call's Payment alike.
    expect(mine[1]!.payment.canceledAt).toBe(Number(canceled!.canceledAt));
    // The sweeper leaves a canceled link alone.
    stack.clock.advance(8 * 24 * HOUR);
    await expireDuePayments(stack.checkout.deps);
    stack.clock.advance(-8 * 24 * HOUR);
    expect((await eventsOf(id, 3)).map((e) => e.type)).toEqual(['payment.started', 'payment.canceled']);
  });

  it('cancels a pending link nobody has paid (a buyer went to a provider): expired, canceled_at, payment.canceled', async () => {
    const reached = (await newLink({ customerEmail: 'ada@example.com' })).id;
    await hosted.startHostedSession({ id: reached }, buyer);
    await hosted.reachHostedProvider({ id: reached, provider: 'cardrail' }, buyer);
    const { payment: link } = await admin.cancelPaymentLink({ id: reached }, test);
    expect(link!).toMatchObject({ status: 'expired', provider: 'cardrail' });
    expect(Number(link!.canceledAt)).toBeGreaterThan(0);
    await expect(hosted.startHostedSession({ id: reached }, buyer)).rejects.toMatchObject({ code: 'canceled' });
    expect((await eventsOf(reached, 2)).map((e) => e.type)).toEqual(['payment.started', 'payment.canceled']);
  });

  it('refuses to cancel a paid payment or an API payment, with not_cancelable', async () => {
    const paid = (await newLink({ customerEmail: 'ada@example.com' })).id;
    await hosted.startHostedSession({ id: paid }, buyer);
    await hosted.reachHostedProvider({ id: paid, provider: 'cardrail' }, buyer);
    await hosted.simulateHostedPayment({ id: paid, outcome: 'paid' }, buyer);
    await expect(admin.cancelPaymentLink({ id: paid }, test)).rejects.toMatchObject({ code: 'not_cancelable' });
    const { payment } = await checkout.createCheckoutSession({ amount: '5', currency: 'USD', description: 'API order', account }, test);
    await expect(admin.cancelPaymentLink({ id: payment!.id }, test)).rejects.toMatchObject({ code: 'not_cancelable' });
    // Nor is an API payment a link to read.
    await expect(admin.getPaymentLink({ id: payment!.id }, test)).rejects.toMatchObject({ code: 'not_found' });
    const { payment: after } = await checkout.getCheckoutSession({ id: payment!.id }, test);
    expect(after!.status).toBe('open');
  });

  it("another account's or mode's link is not_found (read or cancel), and stays open", async () => {
    const id = (await newLink()).id;
    expect((await admin.getPaymentLink({ id }, test)).payment).toMatchObject({
      id,
      customerName: 'Ada Lovelace',
      trackingUrl: expect.stringMatching(/\/track\//),
    });
    await expect(admin.getPaymentLink({ id }, other)).rejects.toMatchObject({ code: 'not_found' });
    await expect(admin.getPaymentLink({ id }, { ...test, livemode: true })).rejects.toMatchObject({ code: 'not_found' });
    await expect(admin.cancelPaymentLink({ id }, other)).rejects.toMatchObject({ code: 'not_found' });
    await expect(admin.cancelPaymentLink({ id }, { ...test, livemode: true })).rejects.toMatchObject({ code: 'not_found' });
    const { payments: links } = await admin.listPaymentLinks({ limit: 100 }, other);
    expect(links).toEqual([]);
    expect((await checkout.getCheckoutSession({ id }, test)).payment!.status).toBe('open');
  });

  it('expires at its own lifetime with payment.expired', async () => {
    const id = (await newLink({ lifetime: '2h' })).id;
    stack.clock.advance(HOUR);
    await expireDuePayments(stack.checkout.deps);
    expect((await checkout.getCheckoutSession({ id }, test)).payment!.status).toBe('open');
    stack.clock.advance(HOUR);
    expect(await expireDuePayments(stack.checkout.deps)).toBeGreaterThanOrEqual(1);
    const [expired] = await eventsOf(id, 1);
    expect(expired).toMatchObject({ type: 'payment.expired', payment: { source: 'payment_link', canceledAt: null } });
  });

  it('refuses bad input with the API codes and writes nothing', async () => {
    const { payments: before } = await admin.listPaymentLinks({ limit: 100 }, test);
    const base = { amount: '10.00', currency: 'USD', description: 'Bad', account };
    const cases: [Record<string, string>, string, string][] = [
      [{ amount: '0.50' }, 'invalid_amount', 'amount'],
      [{ amount: '1e3' }, 'invalid_amount', 'amount'],
      [{ currency: 'JPY' }, 'invalid_currency', 'currency'],
      [{ lifetime: '30m' }, 'invalid_lifetime', 'lifetime'],
      [{ lifetime: '91d' }, 'invalid_lifetime', 'lifetime'],
      [{ lifetime: 'soon' }, 'invalid_lifetime', 'lifetime'],
      [{ customerName: ' ' }, 'invalid_customer_name', 'customer_name'],
      [{ memo: 'x'.repeat(501) }, 'invalid_memo', 'memo'],
      [{ customerEmail: 'nope' }, 'invalid_email', 'customer_email'],
    ];
    for (const [change, code, field] of cases) {
      await expect(admin.createPaymentLink({ ...base, ...change }, test)).rejects.toMatchObject({ code, field });
    }
    await expect(admin.createPaymentLink({ ...base, account: { feeBps: 0 } }, { ...test, livemode: true })).rejects.toMatchObject({
      code: 'no_payout_wallet',
    });
    const { payments: after } = await admin.listPaymentLinks({ limit: 100 }, test);
    expect(after.length).toBe(before.length);
  });

  it('created with a preset id is made once: again with the id answers the first link, created false', async () => {
    const id = newId('payment');
    const request = { amount: '12', currency: 'usd', description: 'Mug', lifetime: '24h', account, id };
    const first = await admin.createPaymentLink(request, test);
    const again = await admin
      .createPaymentLink({ ...request, account: { feeBps: 0 } }, { ...test, livemode: true })
      .catch((e: unknown) => e);
    const retry = await admin.createPaymentLink(request, test);
    expect(first.created).toBe(true);
    expect(retry.created).toBe(false);
    expect(retry.payment!.id).toBe(id);
    expect(retry.payment!.createdAt).toBe(first.payment!.createdAt);
    // The other mode is another scope: its refusal stands, the link is not answered there.
    expect(again).toMatchObject({ code: 'no_payout_wallet' });
    const { payments: links } = await admin.listPaymentLinks({ limit: 100 }, test);
    expect(links.filter((l) => l.id === id)).toHaveLength(1);
  });
});

describe('the buyer locale chosen on create', () => {
  it('is kept with the session in its listed spelling: on the read, the hosted view and the paid event', async () => {
    const { payment } = await checkout.createCheckoutSession(
      { amount: '10', currency: 'eur', description: 'Vase', customerEmail: 'ann@example.com', locale: 'pt-br', account },
      test,
    );
    expect(payment!.locale).toBe('pt-BR');
    expect((await checkout.getCheckoutSession({ id: payment!.id }, test)).payment!.locale).toBe('pt-BR');
    expect((await hosted.getHostedSession({ id: payment!.id }, buyer)).session!.locale).toBe('pt-BR');
    await hosted.startHostedSession({ id: payment!.id, country: 'BR' }, buyer);
    await hosted.simulateHostedPayment({ id: payment!.id, outcome: 'paid' }, buyer);
    const paid = (await eventsOf(payment!.id, 3)).find((e) => e.type === 'payment.paid');
    expect(paid?.payment.locale).toBe('pt-BR');
  });

  it('is kept on a payment link too, and absent when none was sent', async () => {
    const { payment: link } = await admin.createPaymentLink(
      { amount: '10', currency: 'eur', description: 'Vase', locale: 'ja', account },
      test,
    );
    expect(link!.locale).toBe('ja');
    const { payment } = await checkout.createCheckoutSession({ amount: '10', currency: 'eur', description: 'Vase', account }, test);
    expect(payment!.locale).toBeUndefined();
    expect((await hosted.getHostedSession({ id: payment!.id }, buyer)).session!.locale).toBeUndefined();
  });

  it('refuses a locale the pages do not speak, naming the field, and writes nothing', async () => {
    for (const locale of ['de-AT', 'xx', '']) {
      await expect(
        checkout.createCheckoutSession({ amount: '10', currency: 'eur', description: 'Vase', locale, account }, test),
      ).rejects.toMatchObject({ code: 'invalid_locale', field: 'locale' });
      await expect(
        admin.createPaymentLink({ amount: '10', currency: 'eur', description: 'Vase', locale, account }, test),
      ).rejects.toMatchObject({
        code: 'invalid_locale',
        field: 'locale',
      });
    }
  });
});
