import { isSessionStatusName, type SessionStatusName } from '@hc/conversions';
import type { Payment } from '@hc/proto/checkout/v1/payment';

/** The checkout session object of the API, field for field as the spec lists it. */
export interface CheckoutSessionObject {
  id: string;
  object: 'checkout_session';
  url: string;
  status: ApiStatus;
  livemode: boolean;
  amount: string;
  currency: string;
  description: string;
  reference: string | null;
  customer_email: string | null;
  created: number;
  expires_at: number;
  started_at: number | null;
  metadata: Record<string, string> | null;
  locale: string | null;
}

type ApiStatus = SessionStatusName;

export function apiStatus(status: string): ApiStatus {
  if (!isSessionStatusName(status)) throw new Error(`checkout service sent payment status ${status}`);
  return status;
}

/** The API's whole Unix seconds of the payment's milliseconds (rounded down, as @hc/conversions). */
export function apiSeconds(ms: bigint): number;
export function apiSeconds(ms: bigint | undefined): number | null;
export function apiSeconds(ms: bigint | undefined): number | null {
  return ms === undefined ? null : Math.floor(Number(ms) / 1000);
}

/**
 * The API's checkout_session object, from the one Payment message (ADR 0102): the resource keeps its
 * public name; inside, it is the payment.
 */
export function checkoutSessionObject(payment: Payment): CheckoutSessionObject {
  return {
    id: payment.id,
    object: 'checkout_session',
    url: payment.url,
    status: apiStatus(payment.status),
    livemode: payment.mode === 'live',
    amount: payment.amount,
    currency: payment.currency,
    description: payment.description,
    reference: payment.reference ?? null,
    customer_email: payment.customerEmail ?? null,
    created: apiSeconds(payment.createdAt),
    expires_at: apiSeconds(payment.expiresAt),
    started_at: apiSeconds(payment.startedAt),
    // A Struct of string values (checkout writes only strings).
    metadata: payment.metadata
      ? (Object.fromEntries(Object.entries(payment.metadata).map(([k, v]) => [k, String(v)])) as Record<string, string>)
      : null,
    locale: payment.locale ?? null,
  };
}
