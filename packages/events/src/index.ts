export { OUTBOX_TABLE_SQL, OUTBOX_CHANNEL, OUTBOX_NOTIFY_SQL, OUTBOX_NOTIFY_TRIGGER_SQL } from './sql.ts';
export { writeOutbox, outboxInsertSql, outboxRowsJson, rewriteOutboxPayloads, OUTBOX_WAKE_CALL } from './outbox-writer.ts';
export type { OutboxRow, OutboxClient } from './outbox-writer.ts';
export {
  connectNats,
  ensureStream,
  streamName,
  prefixedSubject,
  contextSubjects,
  contextStream,
  DEFAULT_DUPLICATE_WINDOW_MS,
} from './nats.ts';
export type { NatsConnection, StreamOptions } from './nats.ts';
export { streamReplicas, DEFAULT_STREAM_REPLICAS } from './stream-replicas.ts';
export { jetStreamSettling, whileJetStreamSettles, JETSTREAM_SETTLE_MS } from './jetstream-settling.ts';
export { natsSecurityOptions } from './nats-security.ts';
export type { NatsSecurityEnv } from './nats-security.ts';
export { startOutboxRelay, RELAY_APPLICATION_NAME } from './relay.ts';
export { observeQueue } from './metrics.ts';
export type { Backlog } from './metrics.ts';
export type { OutboxRelay, OutboxRelayOptions } from './relay.ts';
export { consumeDurable } from './consumer.ts';
export { deadLetterStream, deadLetterSubject, readDeadLetters, DEAD_LETTER_HEADERS } from './dead-letter.ts';
export type { StoredDeadLetter } from './dead-letter.ts';
export type { ConsumedMessage, DurableConsumer, DurableConsumerOptions } from './consumer.ts';
export {
  markProcessed,
  purgePublished,
  purgeProcessed,
  eventTablePurges,
  processedMessagesPurge,
  MARK_MANY_PROCESSED_SQL,
  MARK_PROCESSED_SQL,
} from './maintenance.ts';
export {
  checkEventRetention,
  startPurgeSchedule,
  DEFAULT_EVENT_RETENTION,
  EVENT_RETENTION_KEYS,
  EVENT_RETENTION_SCHEMA_PROPERTIES,
  PROCESSED_RETENTION_MARGIN_MS,
} from './retention.ts';
export type { EventRetention, PurgeJob, PurgeSchedule } from './retention.ts';
export { purgeConsumedMessages } from './stream-purge.ts';
export type { SubjectPurge } from './stream-purge.ts';
export type { SqlClient } from './maintenance.ts';
export { currentTraceparent, publishInSpan, consumeInSpan, continueTrace, injectTraceHeaders } from './tracing.ts';
export { outboxPosition, consumerProgress, allConsumersSettled, settledThrough, PROGRESS_POLL_MS } from './position.ts';
export type { OutboxPosition, OutboxPositionOptions, ConsumerProgress } from './position.ts';
