import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from '@jest/globals';
import { PaymentSchema } from '@hc/proto/checkout/v1/payment';
import { checkoutSessionObject } from './checkout-session.ts';
import { paymentObject } from './payment.ts';
import { serializeCheckoutSession, serializePayment, serializePaymentList } from './serializers.ts';

// Strings a hand-written serializer gets wrong: quotes, backslashes, control characters, a lone
// surrogate (JSON.stringify escapes it), an emoji, a line separator, "</script>".
const AWKWARD = 'a"b\\c\n\t\u0000\u001f\ud800 é 🙂 \u2028 </script>';

const full = create(PaymentSchema, {
  id: 'pay_01JTESTFULLOBJECT000000000',
  url: 'https://pay.example/pay/pay_01JTESTFULLOBJECT000000000',
  status: 'paid',
  mode: 'live',
  amount: '1234567890.12',
  currency: 'EUR',
  description: AWKWARD,
  reference: 'order "42"',
  customerEmail: 'ann@example.com',
  createdAt: 1795319832_000n,
  expiresAt: 1795406232_000n,
  startedAt: 1795319900_000n,
  metadata: { order: '42', [AWKWARD]: AWKWARD, __note: 'x', '': '' },
  successUrl: 'https://shop.example/ok',
  cancelUrl: 'https://shop.example/no',
  paidAt: 1795320000_000n,
  provider: 'provider-a',
  holdReason: 'amount_mismatch',
  holdAcceptable: true,
  canceledAt: 1795320100_000n,
  coin: 'USDC',
  valueCoin: '25.1',
  merchantReceived: '24.9',
  txidIn: '0xin',
  txidOut: '0xout',
  payoutWallet: '0xwallet',
  country: 'DE',
});

// Every optional field absent: the presenters answer null for each, and metadata null.
const required = {
  id: 'pay_01JTESTBAREOBJECT000000000',
  url: 'https://pay.example/pay/x',
  status: 'open',
  mode: 'test',
  amount: '0.01',
  currency: 'USD',
  description: '',
  createdAt: 0n,
  expiresAt: 1_000n,
};
const bare = create(PaymentSchema, required);
const emptyMetadata = create(PaymentSchema, { ...required, metadata: {} });

describe('schema-compiled serializers', () => {
  it.each([
    ['every field set', full],
    ['every optional field absent', bare],
    ['empty metadata and settlement', emptyMetadata],
  ])('write a payment exactly as JSON.stringify of its presenter (%s)', (_name, session) => {
    const presented = paymentObject(session);
    expect(serializePayment(presented)).toBe(JSON.stringify(presented));
  });

  it.each([
    ['every field set', full],
    ['every optional field absent', bare],
    ['empty metadata', emptyMetadata],
  ])('write a checkout session exactly as JSON.stringify of its presenter (%s)', (_name, session) => {
    const presented = checkoutSessionObject(session);
    expect(serializeCheckoutSession(presented)).toBe(JSON.stringify(presented));
  });

  it('write every status the API knows', () => {
    for (const status of ['open', 'pending', 'paid', 'held', 'failed', 'expired']) {
      const presented = paymentObject(create(PaymentSchema, { ...full, status }));
      expect(serializePayment(presented)).toBe(JSON.stringify(presented));
    }
  });

  it('refuse an object that lacks a field the schema requires, rather than leaving it out', () => {
    const { settlement: _dropped, ...partial } = paymentObject(full);
    expect(() => serializePayment(partial as never)).toThrow();
  });

  it('drop a field the schema does not name: why the equality tests above must stay', () => {
    // What the contract test and the equality tests guard against: a presenter field the schema
    // lacks would not reach the client.
    const presented = { ...checkoutSessionObject(full), extra: 'x' };
    expect(serializeCheckoutSession(presented)).toBe(JSON.stringify(checkoutSessionObject(full)));
  });

  it.each([
    ['a full page with more', [full, bare, emptyMetadata], true],
    ['the last page', [bare], false],
    ['an empty page', [], false],
  ] as const)('write a list page exactly as the route wrote it with JSON.stringify (%s)', (_name, sessions, hasMore) => {
    const data = sessions.map((payment) => paymentObject(payment));
    const expected = JSON.stringify({ data, has_more: hasMore, next_cursor: hasMore ? (data.at(-1)?.id ?? null) : null });
    expect(serializePaymentList(data, hasMore)).toBe(expected);
  });
});
