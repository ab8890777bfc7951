import { contextStream, prefixedSubject, type StreamOptions } from '@hc/events';

/**
 * The checkout context's JetStream stream: payment events (`checkout.payment.<type>`) and the
 * internal order events (`checkout.session.<type>`).
 * Named by @hc/events' convention: with a prefix (tests, shared servers), subjects become
 * `<prefix>.checkout.…` and the stream `<PREFIX>_CHECKOUT`.
 */
export function checkoutStream(prefix: string): StreamOptions {
  return contextStream(prefix, 'checkout');
}

/** The filter for payment events only (what the webhooks context turns into webhooks). */
export function paymentEventsFilter(prefix: string): string {
  return prefixedSubject(prefix, 'checkout.payment.>');
}

/** The filter for the internal order events only. */
export function sessionEventsFilter(prefix: string): string {
  return prefixedSubject(prefix, 'checkout.session.>');
}
