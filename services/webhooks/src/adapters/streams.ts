import { contextStream, prefixedSubject, type EventRetention, type StreamOptions } from '@hc/events';
import { CUSTOMER_ERASED_SUBJECT, PAYMENT_EVENTS_SUBJECTS } from '@hc/events/contracts';

type Retention = Pick<EventRetention, 'EVENTS_STREAM_MAX_AGE_MS'>;

/**
 * The streams this context reads, named by @hc/events' convention. Both are ensured at start (the
 * producer may start later); ensureStream with the producer's own subjects changes nothing.
 */
export function checkoutStream(prefix: string, retention: Retention): StreamOptions {
  return contextStream(prefix, 'checkout', retention);
}

export function customersStream(prefix: string, retention: Retention): StreamOptions {
  return contextStream(prefix, 'customers', retention);
}

/** Payment events only: the checkout stream also carries internal `checkout.session.*` events, never webhooks. */
export function paymentEventsFilter(prefix: string): string {
  return prefixedSubject(prefix, PAYMENT_EVENTS_SUBJECTS);
}

export function customerErasedFilter(prefix: string): string {
  return prefixedSubject(prefix, CUSTOMER_ERASED_SUBJECT);
}
