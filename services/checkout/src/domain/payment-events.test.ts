import { describe, expect, it } from '@jest/globals';
import { decodeEvent, PAYMENT_EVENT } from '@hc/events/contracts';
import { paymentEventPayload, type PaymentEvent, type PaymentSnapshot } from './payment-events.ts';

const snapshot: PaymentSnapshot = {
  id: 'pay_01',
  mode: 'test',
  source: 'api',
  checkoutId: null,
  planLabel: null,
  description: 'Blue mug',
  reference: 'ORD-1',
  customerEmail: 'ann@example.com',
  amount: '19.90',
  currency: 'USD',
  status: 'paid',
  provider: 'walletpay',
  providerName: 'WalletPay',
  depositAddress: null,
  payoutWallet: '0xabc',
  feeBps: 150,
  valueCoin: '19.303000',
  merchantReceived: null,
  coin: 'polygon_usdc',
  holdReason: null,
  holdAcceptable: false,
  txidIn: '0x1',
  txidOut: null,
  metadata: { cart: 'c_77', note: '' },
  customerName: null,
  memo: null,
  trackingUrl: null,
  canceledAt: null,
  successUrl: 'https://shop.example/ok/%7BPAYMENT_ID%7D?r={REFERENCE}',
  createdAt: 1795320898000,
  paidAt: 1795320898500,
  expiresAt: 1795407298000,
  url: 'http://127.0.0.1:8080/pay/pay_01',
  merchantName: 'Mug Shop',
  locale: 'de',
  pageLocale: null,
  startedAt: null,
  cancelUrl: null,
  country: null,
};
const event: PaymentEvent = {
  id: 'pay_01.payment.paid.vrd_01',
  type: 'payment.paid',
  occurredAt: 1795320898123,
  accountId: 'acct_01',
  livemode: false,
  payment: snapshot,
};

describe('the payment event payload (hc.checkout.v1.PaymentEvent)', () => {
  it('is the JSON published before the contract, byte for byte (null fields, millisecond numbers, key order)', () => {
    expect(JSON.stringify(paymentEventPayload(event))).toBe(JSON.stringify(event));
    const bare = { ...event, payment: { ...snapshot, metadata: null, paidAt: null, feeBps: 0, holdAcceptable: true, customerEmail: null } };
    expect(JSON.stringify(paymentEventPayload(bare))).toBe(JSON.stringify(bare));
    expect(JSON.stringify(paymentEventPayload({ ...event, payment: { ...snapshot, metadata: {} } }))).toContain('"metadata":{}');
  });

  it('decodes with the consumers’ decode', () => {
    const decoded = decodeEvent(PAYMENT_EVENT, JSON.parse(JSON.stringify(paymentEventPayload(event))));
    expect(decoded.payment?.paidAt).toBe(1795320898500n);
    expect(decoded.payment?.merchantReceived).toBeUndefined();
  });

  it('refuses a snapshot field the contract does not have, so proto/ is changed with the producer', () => {
    expect(() => paymentEventPayload({ ...event, payment: { ...snapshot, giftWrap: true } as PaymentSnapshot })).toThrow(/giftWrap/);
  });
});
