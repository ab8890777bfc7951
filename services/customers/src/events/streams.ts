import { contextSubjects, streamName, type StreamOptions } from '@hc/events';

/**
 * The two JetStream streams this service touches, named by @hc/events' convention (with a prefix,
 * `<PREFIX>_CHECKOUT` holding `<prefix>.checkout.>`; production uses the empty prefix).
 */
export function checkoutStream(prefix: string): StreamOptions {
  return { name: streamName(prefix, 'checkout'), subjects: [contextSubjects(prefix, 'checkout')] };
}

/** This context's own stream: `customers.customer.erased` (docs/events.md, "Customers context"). */
export function customersStream(prefix: string): StreamOptions {
  return { name: streamName(prefix, 'customers'), subjects: [contextSubjects(prefix, 'customers')] };
}
