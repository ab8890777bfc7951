import { contextStream, prefixedSubject, type StreamOptions } from '@hc/events';

/**
 * The streams this context reads, named by @hc/events' convention. Both are ensured at start (the
 * producer may start later); ensureStream with the producer's own subjects changes nothing.
 */
export function checkoutStream(prefix: string): StreamOptions {
  return contextStream(prefix, 'checkout');
}

export function customersStream(prefix: string): StreamOptions {
  return contextStream(prefix, 'customers');
}

/** Payment events only: the checkout stream also carries internal `checkout.session.*` events, never webhooks. */
export function paymentEventsFilter(prefix: string): string {
  return prefixedSubject(prefix, 'checkout.payment.>');
}

export function customerErasedFilter(prefix: string): string {
  return prefixedSubject(prefix, 'customers.customer.erased');
}
