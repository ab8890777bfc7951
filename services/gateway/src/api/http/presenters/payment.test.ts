// Risk covered (ADR 0102): the API objects changing when they are mapped from the one Payment message
// instead of the CheckoutSession message (which checkout no longer sends, ADR 0106).
import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from '@jest/globals';
import { PaymentSchema } from '@hc/proto/checkout/v1/payment';
import { paymentObject } from './payment.ts';

// One payment as checkout answers it (the event's Payment: milliseconds, words, flat).
const payment = create(PaymentSchema, {
  id: 'pay_01JONE',
  mode: 'live',
  source: 'api',
  url: 'https://pay.example/pay/pay_01JONE',
  status: 'held',
  amount: '40.00',
  currency: 'EUR',
  description: 'Kettle',
  reference: 'ORD-7',
  customerEmail: 'ada@example.com',
  createdAt: 1795320898_123n,
  expiresAt: 1795407298_999n,
  startedAt: 1795320899_500n,
  metadata: { cart: 'c_1' },
  paidAt: 1795320900_001n,
  provider: 'walletpay',
  holdReason: 'amount_mismatch',
  holdAcceptable: true,
  coin: 'polygon_usdc',
  valueCoin: '41.9',
  merchantReceived: '41.2',
  txidIn: '0xin',
  payoutWallet: '0xw',
  country: 'DE',
  locale: 'de',
});

describe('the API objects from the one Payment message', () => {
  it('write whole seconds, livemode from the mode, and the spec fields', () => {
    expect(paymentObject(payment)).toEqual({
      id: 'pay_01JONE',
      object: 'payment',
      url: 'https://pay.example/pay/pay_01JONE',
      status: 'held',
      livemode: true,
      amount: '40.00',
      currency: 'EUR',
      description: 'Kettle',
      reference: 'ORD-7',
      customer_email: 'ada@example.com',
      created: 1795320898,
      expires_at: 1795407298,
      started_at: 1795320899,
      metadata: { cart: 'c_1' },
      locale: 'de',
      paid_at: 1795320900,
      provider: 'walletpay',
      hold_reason: 'amount_mismatch',
      hold_acceptable: true,
      canceled_at: null,
      settlement: {
        coin: 'polygon_usdc',
        value_coin: '41.9',
        merchant_received: '41.2',
        txid_in: '0xin',
        txid_out: null,
        payout_wallet: '0xw',
      },
    });
  });

  it('show no payout wallet before the buyer started, and refuse a status the API does not know', () => {
    const unstarted = create(PaymentSchema, { ...payment, startedAt: undefined });
    expect(paymentObject(unstarted).settlement.payout_wallet).toBeNull();
    expect(() => paymentObject(create(PaymentSchema, { ...payment, status: 'refunded' }))).toThrow('payment status refunded');
  });
});
