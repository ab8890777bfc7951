import { contextSubjects, streamName } from '@hc/events';

/**
 * The checkout context's JetStream stream: every payment event, subject `checkout.payment.<type>`.
 * Named by @hc/events' convention: with a prefix (tests, shared servers), subjects become
 * `<prefix>.checkout.…` and the stream `<PREFIX>_CHECKOUT`.
 */
export function checkoutStream(prefix: string): { name: string; subjects: string[] } {
  return { name: streamName(prefix, 'checkout'), subjects: [contextSubjects(prefix, 'checkout')] };
}
