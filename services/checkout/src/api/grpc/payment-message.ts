import { create, ScalarType } from '@bufbuild/protobuf';
import { PaymentSchema, type Payment as PaymentMessage } from '@hc/proto/checkout/v1/payment';
import type { Payment } from '../../domain/payment.ts';
import { paymentOf, type PaymentEventContext, type PaymentSnapshot } from '../../domain/payment-events.ts';

/**
 * How each field of the message is read from the snapshot (its JSON form), found once from the schema:
 * a 64-bit integer is a number in JSON and a bigint in the message; a string, bool, 32-bit number or
 * Struct (a plain JSON object in protobuf-es) is the same value in both. A field of any other kind
 * (enum, bytes, list, map, another message) differs between the two forms: the service refuses to
 * start until the copy below learns it, instead of answering it wrong.
 */
const BIGINT_SCALARS = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);
const FIELDS = PaymentSchema.fields.map((field) => {
  const same =
    (field.fieldKind === 'scalar' && field.scalar !== ScalarType.BYTES) ||
    (field.fieldKind === 'message' && field.message.typeName === 'google.protobuf.Struct');
  if (!same) throw new Error(`hc.checkout.v1.Payment.${field.name}: messageOf does not copy a ${field.fieldKind} field yet`);
  return {
    jsonName: field.jsonName,
    localName: field.localName,
    bigint: field.fieldKind === 'scalar' && BIGINT_SCALARS.has(field.scalar),
  };
});

/**
 * The payment as calls answer it: the hc.checkout.v1.Payment message events carry too, read from the
 * same snapshot (domain/payment-events.ts), so a field added to the payment is mapped once (ADR 0102).
 *
 * The snapshot is the message's JSON form; it is copied field by field along the schema instead of
 * going through `fromJson`, which re-checks every value by reflection: 20 payments (a list page) cost
 * checkout about 90 µs that way and about 25 µs this way (docs/performance.md, "Lists: the payment
 * message without fromJson"). Only the int64 times (numbers in JSON, bigints here) are converted; the
 * metadata (a Struct) is a JSON object in both. `payment-message.test.ts` holds this equal to `fromJson` of the snapshot.
 */
export function paymentMessage(payment: Payment, context: PaymentEventContext): PaymentMessage {
  return messageOf(paymentOf(payment, context));
}

/** The message of a snapshot: what `fromJson(PaymentSchema, snapshot)` answers, without its reflection. */
export function messageOf(snapshot: PaymentSnapshot): PaymentMessage {
  const json = snapshot as unknown as Record<string, unknown>;
  const message = create(PaymentSchema) as unknown as Record<string, unknown>;
  for (const field of FIELDS) {
    const value = json[field.jsonName];
    if (value === null || value === undefined) continue; // unset: the message's default
    message[field.localName] = field.bigint ? BigInt(value as number) : value;
  }
  return message as unknown as PaymentMessage;
}
