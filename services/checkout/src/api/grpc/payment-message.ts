import { fromJson, type JsonObject } from '@bufbuild/protobuf';
import { PaymentSchema, type Payment } from '@hc/proto/checkout/v1/payment';
import type { CheckoutSession } from '../../domain/checkout-session.ts';
import { paymentOf, type PaymentEventContext } from '../../domain/payment-events.ts';

/**
 * The payment as calls answer it: the hc.checkout.v1.Payment message events carry too, read from the
 * same snapshot (domain/payment-events.ts), so a field added to the payment is mapped once (ADR 0102).
 */
export function paymentMessage(session: CheckoutSession, context: PaymentEventContext): Payment {
  return fromJson(PaymentSchema, paymentOf(session, context) as unknown as JsonObject);
}
