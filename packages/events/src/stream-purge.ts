import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from './nats.ts';

export interface SubjectPurge {
  /** Messages removed now. */
  purged: number;
  /** Messages of the filter still in the stream: some durable consumer has not processed them yet. */
  remaining: number;
}

/**
 * Removes from `stream` the messages on `filter` (a subject, wildcards allowed) that every durable
 * consumer of the stream has processed, and says how many are left. A message a durable consumer
 * has not acknowledged yet is never removed, so erasing can never lose an event a consumer (a
 * webhook, an order) still needs: call it again later until `remaining` is 0.
 *
 * Per durable consumer, the messages below its ack floor are done; one with nothing pending and
 * nothing awaiting an ack is done with the whole stream as it was when we looked. The purge removes
 * the filter's messages below the lowest such bound. Messages stored after we looked have higher
 * sequences, so they are kept for the next call. Ephemeral readers (ordered consumers, the `nats` CLI)
 * are promised nothing and are not waited for.
 */
export async function purgeConsumedMessages(nc: NatsConnection, stream: string, filter: string): Promise<SubjectPurge> {
  const jsm = await jetstreamManager(nc);
  const before = await jsm.streams.info(stream);
  let bound = before.state.last_seq + 1;
  for await (const consumer of jsm.consumers.list(stream)) {
    if (!consumer.config.durable_name) continue;
    const caughtUp = consumer.num_pending === 0 && consumer.num_ack_pending === 0 && consumer.num_redelivered === 0;
    if (!caughtUp) bound = Math.min(bound, consumer.ack_floor.stream_seq + 1);
  }
  // Nothing lies below the bound: skip, for the server reads a `seq` of 1 (or 0) as "no limit at all".
  const purged = bound > before.state.first_seq ? (await jsm.streams.purge(stream, { filter, seq: bound })).purged : 0;
  const after = await jsm.streams.info(stream, { subjects_filter: filter });
  const remaining = Object.values(after.state.subjects ?? {}).reduce((sum, count) => sum + count, 0);
  return { purged, remaining };
}
