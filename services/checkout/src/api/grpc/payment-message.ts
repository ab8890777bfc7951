import { fromJson, type JsonObject } from '@bufbuild/protobuf';
import { PaymentSchema, type Payment as PaymentMessage } from '@hc/proto/checkout/v1/payment';
import type { Payment } from '../../domain/payment.ts';
import { paymentOf, type PaymentEventContext } from '../../domain/payment-events.ts';

/**
 * The payment as calls answer it: the hc.checkout.v1.Payment message events carry too, read from the
 * same snapshot (domain/payment-events.ts), so a field added to the payment is mapped once (ADR 0102).
 */
export function paymentMessage(payment: Payment, context: PaymentEventContext): PaymentMessage {
  return fromJson(PaymentSchema, paymentOf(payment, context) as unknown as JsonObject);
}
