import type { JetStreamClient } from '@nats-io/jetstream';
import type { Logger } from '@hc/logging';
import { prefixedSubject } from './nats.ts';
import { publishInSpan } from './tracing.ts';

/** One unpublished outbox row, as the relay reads it. */
export interface OutboxRow {
  seq: string;
  msg_id: string;
  subject: string;
  payload: string;
  trace_parent: string | null;
}

/** The rows JetStream acked before the first failure, and that failure (if any). */
export interface PublishOutcome {
  handled: OutboxRow[];
  failure?: unknown;
}

export interface RowPublisherSettings {
  js: JetStreamClient;
  /** Prepended to each row's relative subject ("" in production). */
  subjectPrefix: string;
  publishTimeoutMs: number;
  logger: Logger;
}

/**
 * Publishes a batch without waiting a round trip per row: every row goes out at once, in seq order on
 * the one connection, each with `Nats-Msg-Id` = msg_id (the stream's duplicate window drops a
 * re-publish after a crash). Each row after the first of its stream names the row before it as the
 * stream's last message (Nats-Expected-Last-Msg-Id), so a row that is not stored stops every later row
 * of its stream from being stored too ("wrong last msg ID"): the stream keeps seq order exactly as when
 * each ack was awaited. A row the stream already has is answered as a duplicate before that check, so
 * it never blocks.
 */
export function rowPublisher(settings: RowPublisherSettings): (rows: readonly OutboxRow[]) => Promise<PublishOutcome> {
  return async (rows) => {
    const lastOfStream = new Map<string, string>();
    const acks = rows.map((row) => {
      const stream = row.subject.split('.', 1)[0]!; // a context's stream holds its subjects only
      const previous = lastOfStream.get(stream);
      lastOfStream.set(stream, row.msg_id);
      return publishRow(settings, row, previous);
    });
    return outcomeInOrder(rows, await Promise.allSettled(acks));
  };
}

async function publishRow(settings: RowPublisherSettings, row: OutboxRow, previousMsgId: string | undefined): Promise<void> {
  const subject = prefixedSubject(settings.subjectPrefix, row.subject);
  const ack = await publishInSpan({ subject, msgId: row.msg_id, traceparent: row.trace_parent }, (headers) =>
    settings.js.publish(subject, row.payload, {
      msgID: row.msg_id,
      timeout: settings.publishTimeoutMs,
      headers,
      ...(previousMsgId === undefined ? {} : { expect: { lastMsgID: previousMsgId } }),
    }),
  );
  if (ack.duplicate)
    settings.logger.info({ msgId: row.msg_id, seq: row.seq }, 'outbox relay: stream already had this message (re-publish after a crash)');
}

/** Only the rows before the first failure count as handled: later ones may not be on the stream. */
function outcomeInOrder(rows: readonly OutboxRow[], settled: readonly PromiseSettledResult<void>[]): PublishOutcome {
  const firstFailure = settled.findIndex((result) => result.status === 'rejected');
  if (firstFailure === -1) return { handled: [...rows] };
  return { handled: rows.slice(0, firstFailure), failure: (settled[firstFailure] as PromiseRejectedResult).reason };
}
