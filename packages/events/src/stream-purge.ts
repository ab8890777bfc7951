import { jetstreamManager, type MsgRequest, type NextMsgRequest } from '@nats-io/jetstream';
import type { NatsConnection } from './nats.ts';

export interface SubjectPurge {
  /** Messages removed now. */
  purged: number;
  /**
   * Messages on the subjects left in the stream: some durable consumer has not processed them yet,
   * or they were stored after we looked. 0 when the subjects are clear.
   */
  remaining: number;
}

/**
 * Removes from `stream` the messages on `subjects` (wildcards allowed, e.g. `checkout.*.*.<payment
 * id>`) that every durable consumer of the stream has processed, and says how many are left. A
 * message a durable consumer has not acknowledged yet is never removed, so erasing can never lose an
 * event a consumer (a webhook, an order) still needs: call it again later until `remaining` is 0.
 *
 * Per durable consumer, the messages below its ack floor are done; one with nothing pending and
 * nothing awaiting an ack is done with the whole stream as it was when we looked. Messages below the
 * lowest such bound are deleted one by one, their bytes overwritten on disk (`erase`). Not a filtered
 * stream purge: the server moves consumers whose filter overlaps a purged subject forward, and a
 * consumer could skip a message it has not received yet (found by retention.int.test.ts). Messages
 * stored after we looked have higher sequences, so they are kept for the next call. Ephemeral readers
 * (ordered consumers, the `nats` CLI) are promised nothing and are not waited for. The cost grows with
 * the stream's size (ADR 0017 has the figures): fine for an operator's erasure, not for a hot path.
 */
export async function purgeConsumedMessages(nc: NatsConnection, stream: string, subjects: readonly string[]): Promise<SubjectPurge> {
  const jsm = await jetstreamManager(nc);
  const before = await jsm.streams.info(stream);
  let bound = before.state.last_seq + 1;
  for await (const consumer of jsm.consumers.list(stream)) {
    if (!consumer.config.durable_name) continue;
    const caughtUp = consumer.num_pending === 0 && consumer.num_ack_pending === 0 && consumer.num_redelivered === 0;
    if (!caughtUp) bound = Math.min(bound, consumer.ack_floor.stream_seq + 1);
  }
  let purged = 0;
  let remaining = 0;
  for (const subject of subjects) {
    for (let seq = before.state.first_seq; ;) {
      // The server's message-get API takes next_by_subj (the client types list it for direct gets only).
      const next: NextMsgRequest = { seq, next_by_subj: subject };
      const message = await jsm.streams.getMessage(stream, next as unknown as MsgRequest);
      if (message === null) break;
      if (message.seq >= bound) remaining += 1;
      else if (await jsm.streams.deleteMessage(stream, message.seq, true)) purged += 1;
      seq = message.seq + 1;
    }
  }
  return { purged, remaining };
}
