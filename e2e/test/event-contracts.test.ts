// Risk covered: a producer and a consumer of a NATS subject disagreeing on its payload (a renamed or
// retyped field, a number written as a string) so that every message is dead-lettered, or read wrong.
// Each event is built by the real producer code and read by the real consumer decode (docs/adr/0022).
import { describe, expect, it } from '@jest/globals';
import {
  paymentEventPayload,
  paymentSnapshot,
  sessionCreatedEvent,
  sessionEventPayload,
  sessionStartedEvent,
  NO_SETTLEMENT,
  UNSTARTED,
  type Payment,
  type PaymentEvent,
} from '@hc/checkout';
import { customerErasedEvent, customerErasedPayload, parseCheckoutEvent } from '@hc/customers';
import { CUSTOMER_ERASED, decodeEvent, PAYMENT_EVENT, VERDICT_REACHED } from '@hc/events/contracts';
import { verdictReachedEvent } from '@hc/settlement';
import { webhookPayment } from '@hc/webhooks';

const json = (payload: unknown): unknown => JSON.parse(JSON.stringify(payload));

const payment: Payment = {
  ...UNSTARTED,
  id: 'pay_01CONTRACT',
  accountId: 'acct_01',
  livemode: false,
  status: 'paid',
  amount: '40.00',
  currency: 'EUR',
  description: 'Kettle',
  reference: 'ORD-7',
  customerEmail: 'ada@example.com',
  customerRevision: 1,
  metadata: { cart: 'c_1' },
  successUrl: 'https://shop.example/ok/{PAYMENT_ID}?r={REFERENCE}',
  cancelUrl: null,
  locale: 'de',
  pageLocale: 'fr',
  createdAt: new Date(1795320898000),
  expiresAt: new Date(1795407298000),
  startedAt: new Date(1795320899000),
  provider: 'walletpay',
  paidAt: new Date(1795320900000),
  merchantName: 'Shop',
  feeBps: 150,
  payoutWallet: '0x3333333333333333333333333333333333333333',
  settlement: { ...NO_SETTLEMENT, coin: 'polygon_usdc', valueCoin: '41.904000', txidIn: '0xin' },
} as Payment;

describe('event contracts, producer to consumer', () => {
  const event: PaymentEvent = {
    id: `${payment.id}.payment.paid.vrd_1`,
    type: 'payment.paid',
    occurredAt: 1795320900123,
    accountId: payment.accountId,
    livemode: false,
    payment: paymentSnapshot(payment, 'http://127.0.0.1:8080', 'WalletPay'),
  };

  it('checkout payment event → webhooks: the merchant payment shape is the snapshot checkout published before, byte for byte', () => {
    const decoded = decodeEvent(PAYMENT_EVENT, json(paymentEventPayload(event)));
    // merchantName, locale and pageLocale travel for the receipt (notifications, ADR 0048, 0089), startedAt,
    // cancelUrl and country for the calls (ADR 0102); no field of the webhook shape.
    const { merchantName, locale, pageLocale, startedAt, cancelUrl, country, ...webhookShape } = event.payment;
    expect([startedAt, cancelUrl, country]).toEqual([1795320899000, null, null]);
    expect([merchantName, locale, pageLocale]).toEqual(['Shop', 'de', 'fr']);
    expect(JSON.stringify(webhookPayment(decoded.payment!))).toBe(JSON.stringify(webhookShape));
  });

  it('checkout payment event → customers', () => {
    expect(parseCheckoutEvent(json(paymentEventPayload(event)))).toMatchObject({
      type: 'payment.paid',
      payment: { id: payment.id, amount: '40.00', currency: 'EUR', status: 'paid', paidAt: new Date(1795320900000) },
    });
  });

  it('checkout session events → customers', () => {
    const details = {
      name: 'Ada',
      phone: null,
      shippingAddress: { name: 'Ada', line1: '1 St', line2: null, city: 'London', region: null, postalCode: 'SW1', country: 'GB' },
      billingAddress: null,
      storeAccount: { platform: 'shopify', storeId: 'shop-1', storeName: null, customerId: '88' },
    };
    const created = parseCheckoutEvent(json(sessionEventPayload(sessionCreatedEvent(payment, details))));
    expect(created).toMatchObject({
      type: 'session.created',
      session: { id: payment.id, customerEmail: 'ada@example.com' },
      customer: details,
    });
    const started = parseCheckoutEvent(json(sessionEventPayload(sessionStartedEvent(payment, new Date(1795320899000)))));
    expect(started).toMatchObject({ type: 'session.started', sessionId: payment.id, customerEmail: 'ada@example.com', revision: 1 });
  });

  it('customers customer.erased → checkout and webhooks (one decode)', () => {
    const erased = customerErasedEvent(
      { id: 'cus_1', accountId: 'acct_01', livemode: false },
      [{ id: payment.id, emailRevision: 1 }],
      new Date(5),
    );
    const decoded = decodeEvent(CUSTOMER_ERASED, json(customerErasedPayload(erased)));
    expect(decoded).toMatchObject({
      customerId: 'cus_1',
      accountId: 'acct_01',
      paymentIds: [payment.id],
      emailRevisions: { [payment.id]: 1 },
    });
  });

  it('settlement verdict.reached → checkout', () => {
    const verdict = {
      id: 'vrd_1',
      paymentId: payment.id,
      kind: 'held' as const,
      holdReason: 'Underpaid.',
      holdAcceptable: true,
      settlement: null,
      decidedAt: new Date(7),
    };
    const decoded = decodeEvent(VERDICT_REACHED, json(verdictReachedEvent({ accountId: 'acct_01', livemode: true }, verdict).payload));
    expect(decoded).toMatchObject({
      accountId: 'acct_01',
      livemode: true,
      verdict: { id: 'vrd_1', paymentId: payment.id, holdAcceptable: true },
    });
  });
});
