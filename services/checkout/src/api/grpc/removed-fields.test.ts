// Risk covered: a number or name of the fields the contract step removed (ADR 0106) used again for
// something else, which a checkout or gateway of the expand release would then misread during a rolling
// upgrade; and the messages of an expand-release peer failing to decode here.
import { describe, expect, it } from '@jest/globals';
import { create, fromBinary, toBinary, type DescMessage } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import {
  AcceptHeldPaymentResponseSchema,
  CancelPaymentLinkResponseSchema,
  CreateCheckoutSessionResponseSchema,
  CreatePaymentLinkResponseSchema,
  ExportPaymentsResponseSchema,
  GetCheckoutSessionRequestSchema,
  GetCheckoutSessionResponseSchema,
  GetOverviewResponseSchema,
  GetPaymentLinkResponseSchema,
  ListPaymentLinksResponseSchema,
  ListPaymentsRequestSchema,
  ListPaymentsResponseSchema,
  MarkProviderReachedResponseSchema,
  SimulatePaymentResponseSchema,
  StartCheckoutSessionResponseSchema,
} from '@hc/proto/checkout/v1';
import { PaymentSchema } from '@hc/proto/checkout/v1/payment';

/** Every field ADR 0102's contract step removed: its message, number and name. */
const REMOVED: ReadonlyArray<[DescMessage, number, string]> = [
  [CreateCheckoutSessionResponseSchema, 1, 'session'],
  [GetCheckoutSessionResponseSchema, 1, 'session'],
  [StartCheckoutSessionResponseSchema, 1, 'session'],
  [GetCheckoutSessionRequestSchema, 2, 'payment_only'],
  [ListPaymentsRequestSchema, 9, 'payment_only'],
  [ListPaymentsResponseSchema, 1, 'payments'],
  [SimulatePaymentResponseSchema, 1, 'payment'],
  [MarkProviderReachedResponseSchema, 1, 'payment'],
  [AcceptHeldPaymentResponseSchema, 1, 'payment'],
  [ExportPaymentsResponseSchema, 1, 'payment'],
  [GetOverviewResponseSchema, 7, 'needs_you'],
  [CreatePaymentLinkResponseSchema, 1, 'link'],
  [CancelPaymentLinkResponseSchema, 1, 'link'],
  [GetPaymentLinkResponseSchema, 1, 'link'],
  [ListPaymentLinksResponseSchema, 1, 'links'],
];

describe('the fields removed in the contract step (ADR 0106)', () => {
  it.each(REMOVED.map(([schema, number, name]) => [schema.typeName, number, name, schema] as const))(
    '%s keeps %d and "%s" reserved, and no field has them',
    (_typeName, number, name, schema) => {
      const reserved = schema.proto.reservedRange.some((range) => range.start <= number && number < range.end);
      expect({ number: reserved, name: schema.proto.reservedName.includes(name) }).toEqual({ number: true, name: true });
      expect(schema.fields.filter((field) => field.number === number || field.name === name)).toEqual([]);
    },
  );

  it('an answer of an expand-release checkout (the old copy in field 1 beside the Payment) decodes: the Payment, nothing read from 1', () => {
    const payment = create(PaymentSchema, { id: 'pay_1', status: 'held', holdAcceptable: true, createdAt: 1_700_000_000_000n });
    // What the expand release wrote: GetCheckoutSessionResponse.session (1), a CheckoutSession with its
    // id (1) and hold_acceptable (19), then payment (2).
    const session = new BinaryWriter().tag(1, WireType.LengthDelimited).string('pay_1').tag(19, WireType.Varint).bool(true).finish();
    const bytes = new BinaryWriter()
      .tag(1, WireType.LengthDelimited)
      .bytes(session)
      .tag(2, WireType.LengthDelimited)
      .bytes(toBinary(PaymentSchema, payment))
      .finish();
    const answer = fromBinary(GetCheckoutSessionResponseSchema, bytes);
    expect(answer.payment).toEqual(payment);
    expect(Object.keys(answer).filter((key) => !key.startsWith('$'))).toEqual(['payment']);
    expect(answer.$unknown?.map((field) => field.no)).toEqual([1]);
  });

  it("an expand-release gateway's read with payment_only set decodes here as a plain read", () => {
    const bytes = new BinaryWriter().tag(1, WireType.LengthDelimited).string('pay_1').tag(2, WireType.Varint).bool(true).finish();
    const request = fromBinary(GetCheckoutSessionRequestSchema, bytes);
    expect(request.id).toBe('pay_1');
    expect(request.$unknown?.map((field) => field.no)).toEqual([2]);
  });
});
