/**
 * The one place that names what crosses a context on NATS (docs/events.md, docs/adr/0022): event type
 * strings and subjects. Pure (no I/O), so domain code of any service may import it
 * (`@hc/events/contracts`). The payload of every subject is a proto message in `proto/hc/<context>/v1/events.proto`.
 */

/** The payment event types: what checkout publishes and what a webhook endpoint can subscribe to (the spec's list). */
export const PAYMENT_EVENT_TYPES = [
  'payment.started',
  'payment.paid',
  'payment.held',
  'payment.updated',
  'payment.failed',
  'payment.expired',
  'payment.canceled',
] as const;
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

export function isPaymentEventType(value: unknown): value is PaymentEventType {
  return typeof value === 'string' && (PAYMENT_EVENT_TYPES as readonly string[]).includes(value);
}

/** Checkout's internal session events (read by the customers context; never webhook event types). */
export const SESSION_EVENT_TYPES = ['session.created', 'session.started'] as const;
export type SessionEventType = (typeof SESSION_EVENT_TYPES)[number];

export const CUSTOMER_ERASED_TYPE = 'customer.erased';

/** `checkout.<type>.<payment id>`: the payment id ends the subject, so erasure can delete one payment's messages (ADR 0017). */
export function checkoutEventSubject(type: PaymentEventType | SessionEventType, paymentId: string): string {
  return `checkout.${type}.${paymentId}`;
}

/** What the webhooks context reads of the checkout stream: payment events only. */
export const PAYMENT_EVENTS_SUBJECTS = 'checkout.payment.>';
/** Checkout's internal order events only (`checkout.session.<type>.<payment id>`). */
export const SESSION_EVENTS_SUBJECTS = 'checkout.session.>';
/** Every event of one payment on the checkout stream (payment and session events). */
export function paymentMessagesSubjects(paymentId: string): string {
  return `checkout.*.*.${paymentId}`;
}
/** Everything on the checkout stream (the customers context reads payment and session events). */
export const CHECKOUT_EVENTS_SUBJECTS = 'checkout.>';
export const CUSTOMER_ERASED_SUBJECT = `customers.${CUSTOMER_ERASED_TYPE}`;
export const VERDICT_REACHED_SUBJECT = 'settlement.verdict.reached';

/** What the webhooks context tells about an endpoint (docs/adr/0049): failing for long, or disabled by the platform. */
export const ENDPOINT_ALERT_TYPES = ['endpoint.failing', 'endpoint.disabled'] as const;
export type EndpointAlertType = (typeof ENDPOINT_ALERT_TYPES)[number];
/** `webhooks.<type>.<endpoint id>`. */
export function endpointAlertSubject(type: EndpointAlertType, endpointId: string): string {
  return `webhooks.${type}.${endpointId}`;
}
/** Every endpoint alert (the notifications context reads them). */
export const ENDPOINT_ALERTS_SUBJECTS = 'webhooks.endpoint.>';

/** What the accounts context tells of an account or a key (internal; docs/adr/0085). */
export const ACCOUNT_UPDATED_TYPE = 'account.updated';
export const API_KEY_REVOKED_TYPE = 'api_key.revoked';
/** `accounts.account.updated.<account id>`: created, or its status, payout wallet or fee changed. */
export function accountUpdatedSubject(accountId: string): string {
  return `accounts.${ACCOUNT_UPDATED_TYPE}.${accountId}`;
}
/** `accounts.api_key.revoked.<key id>`. */
export function apiKeyRevokedSubject(keyId: string): string {
  return `accounts.${API_KEY_REVOKED_TYPE}.${keyId}`;
}
/** Every account event. */
export const ACCOUNT_EVENTS_SUBJECTS = 'accounts.>';
