import { describe, expect, it } from '@jest/globals';
import { fromJson, toBinary, type JsonObject } from '@bufbuild/protobuf';
import { PaymentSchema } from '@hc/proto/checkout/v1/payment';
import type { PaymentSnapshot } from '../../domain/payment-events.ts';
import { messageOf } from './payment-message.ts';

/** Every field of the message set (none left at its default), so a field the copy misses shows. */
const full: PaymentSnapshot = {
  id: 'pay_01',
  mode: 'live',
  source: 'payment_link',
  checkoutId: 'chk_01',
  planLabel: 'Monthly',
  description: 'Blue mug',
  reference: 'ORD-1',
  customerEmail: 'ann@example.com',
  amount: '19.90',
  currency: 'USD',
  status: 'held',
  provider: 'walletpay',
  providerName: 'WalletPay',
  depositAddress: '0xdep',
  payoutWallet: '0xabc',
  feeBps: 150,
  valueCoin: '19.303000',
  merchantReceived: '19.01',
  coin: 'polygon_usdc',
  holdReason: 'underpaid',
  holdAcceptable: true,
  txidIn: '0x1',
  txidOut: '0x2',
  metadata: { cart: 'c_77', note: '' },
  customerName: 'Ann',
  memo: 'gift',
  trackingUrl: 'http://127.0.0.1:8080/t/pay_01',
  canceledAt: 1795320899000,
  successUrl: 'https://shop.example/ok/%7BPAYMENT_ID%7D?r={REFERENCE}',
  createdAt: 1795320898000,
  paidAt: 1795320898500,
  expiresAt: 1795407298000,
  url: 'http://127.0.0.1:8080/pay/pay_01',
  merchantName: 'Mug Shop',
  locale: 'de',
  pageLocale: 'fr',
  startedAt: 1795320898100,
  cancelUrl: 'https://shop.example/cancel',
  country: 'DE',
};

/** What a fresh payment sets; every other field of the snapshot is null (unset). */
const SET_ON_CREATE = new Set([
  'id',
  'mode',
  'source',
  'description',
  'amount',
  'currency',
  'status',
  'feeBps',
  'holdAcceptable',
  'createdAt',
  'expiresAt',
  'url',
]);

/** A fresh payment: every optional field unset, no metadata. */
const sparse = {
  ...Object.fromEntries(Object.entries(full).map(([key, value]) => [key, SET_ON_CREATE.has(key) ? value : null])),
  mode: 'test',
  source: 'api',
  status: 'open',
  feeBps: 0,
  holdAcceptable: false,
} as PaymentSnapshot;

const viaFromJson = (snapshot: PaymentSnapshot) => fromJson(PaymentSchema, snapshot as unknown as JsonObject);

describe('the Payment message from its snapshot', () => {
  it.each([
    ['every field set', full],
    ['a fresh payment (optional fields unset)', sparse],
  ])('is what fromJson answers, field for field and byte for byte: %s', (_name, snapshot) => {
    const copied = messageOf(snapshot);
    expect(copied).toEqual(viaFromJson(snapshot));
    expect(Buffer.from(toBinary(PaymentSchema, copied))).toEqual(Buffer.from(toBinary(PaymentSchema, viaFromJson(snapshot))));
  });

  it('leaves no field of the message at its default when the snapshot sets every one', () => {
    const copied = messageOf(full) as unknown as Record<string, unknown>;
    const unset = PaymentSchema.fields.filter((field) => [undefined, '', 0, 0n, false].includes(copied[field.localName] as never));
    expect(unset.map((field) => field.name)).toEqual([]);
  });
});
