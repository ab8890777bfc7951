import { JetStreamApiError } from '@nats-io/jetstream';
import { NoRespondersError, TimeoutError } from '@nats-io/transport-node';
import { backoffDelay } from '@hc/batching';

/**
 * How long a service's start-up keeps asking JetStream to create or update its streams and consumers
 * while the cluster cannot answer yet. A three-node cluster (docs/adr/0098) elects a leader for its
 * meta layer and one for each stream and consumer after a start or a node's loss; until then an admin
 * request times out, finds no responders or is answered 503. Seventeen processes starting at once on
 * a 2-core machine beside three NATS nodes took up to ~20 s (the fault profile, docs/adr/0099).
 */
export const JETSTREAM_SETTLE_MS = 60_000;

const NO_SUITABLE_PEERS = 10005;

/**
 * Whether an admin request failed because JetStream is not able to answer yet (rather than refusing
 * what was asked): the request timed out, nobody answered it, JetStream is not (yet) enabled on the
 * server reached, the API answered 503 (10008 "JetStream system temporarily unavailable", a stream
 * or consumer without a leader yet), or no peers could be placed yet (10005).
 */
export function jetStreamSettling(error: unknown): boolean {
  if (error instanceof TimeoutError || error instanceof NoRespondersError) return true;
  // The library does not export its JetStreamNotEnabled class; it names its errors.
  if (error instanceof Error && error.name === 'JetStreamNotEnabled') return true;
  // 10005 "no suitable peers for placement": the nodes that came back are not current with the meta
  // leader yet (seen a moment after a cluster re-formed). It is also the answer to more replicas than
  // the cluster has nodes, which then fails the start once the wait is over, as loudly as before.
  if (error instanceof JetStreamApiError) return error.status === 503 || error.code === NO_SUITABLE_PEERS;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause !== undefined && cause !== error && jetStreamSettling(cause);
}

/**
 * Runs `request` (creating or updating a stream or consumer) again while JetStream is settling
 * (jetStreamSettling), a doubling wait between tries, until it succeeds or `withinMs` has passed; then
 * the last error is thrown, and the service's start fails loudly as before. Any other error (a refusal
 * of the settings asked for) is thrown at once. The requests it wraps are idempotent: update-or-create.
 */
export async function whileJetStreamSettles<T>(request: () => Promise<T>, withinMs = JETSTREAM_SETTLE_MS): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      const delay = backoffDelay({ firstMs: 250, maxMs: 4_000 }, attempt);
      if (!jetStreamSettling(error) || Date.now() + delay >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
