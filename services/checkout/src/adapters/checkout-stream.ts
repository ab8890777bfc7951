import { contextStream, prefixedSubject, type EventRetention, type StreamOptions } from '@hc/events';
import { PAYMENT_EVENTS_SUBJECTS, paymentMessagesSubjects, SESSION_EVENTS_SUBJECTS } from '@hc/events/contracts';

/**
 * The checkout context's JetStream stream: payment events (`checkout.payment.<type>`) and the
 * internal order events (`checkout.session.<type>`), each subject ending in the payment id
 * (`checkout.payment.paid.pay_01…`) so erasure can purge exactly one payment's messages.
 * Named by @hc/events' convention: with a prefix (tests, shared servers), subjects become
 * `<prefix>.checkout.…` and the stream `<PREFIX>_CHECKOUT`.
 */
export function checkoutStream(prefix: string, retention: Pick<EventRetention, 'EVENTS_STREAM_MAX_AGE_MS'>): StreamOptions {
  return contextStream(prefix, 'checkout', retention);
}

/**
 * Every message of one payment, payment and session events alike, and any event type added later
 * whose subject ends in the payment id: `checkout.*.*.<payment id>` (one filter cannot miss a new type).
 */
export function paymentMessagesFilter(prefix: string, paymentId: string): string {
  return prefixedSubject(prefix, paymentMessagesSubjects(paymentId));
}

/** The filter for payment events only (what the webhooks context turns into webhooks). */
export function paymentEventsFilter(prefix: string): string {
  return prefixedSubject(prefix, PAYMENT_EVENTS_SUBJECTS);
}

/** The filter for the internal order events only. */
export function sessionEventsFilter(prefix: string): string {
  return prefixedSubject(prefix, SESSION_EVENTS_SUBJECTS);
}
