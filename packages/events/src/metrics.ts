/**
 * Metrics of the outbox and the consumers (docs/operations.md lists them with their runbook). They go
 * through @opentelemetry/api: exported when @hc/telemetry started the SDK (OTLP and/or Prometheus),
 * no-ops otherwise — the backlog query then never runs, as no reader ever collects.
 */
import { metrics, type BatchObservableCallback } from '@opentelemetry/api';

const meter = metrics.getMeter('hc-events');

/** Rows the relay published (acked by JetStream). */
export const outboxPublished = meter.createCounter('hc.outbox.published', {
  description: 'Outbox rows published to JetStream',
  unit: '{message}',
});
const outboxBacklog = meter.createObservableGauge('hc.outbox.backlog', {
  description: 'Outbox rows committed but not yet published',
  unit: '{message}',
});
const outboxOldestAge = meter.createObservableGauge('hc.outbox.oldest_age', {
  description: 'Age of the oldest unpublished outbox row (0 when none)',
  unit: 's',
});

/** Messages a durable consumer finished with, by outcome: acked, retried (nak) or terminated. */
export const consumerMessages = meter.createCounter('hc.consumer.messages', {
  description: 'Messages handled by a durable consumer, by outcome',
  unit: '{message}',
});
/** Messages JetStream delivered again (a handler failed, an ack was lost, a process died). */
export const consumerRedeliveries = meter.createCounter('hc.consumer.redeliveries', {
  description: 'Messages received that JetStream had delivered before',
  unit: '{message}',
});
const consumerPending = meter.createObservableGauge('hc.consumer.pending', {
  description: 'Messages in the stream not yet delivered to the durable consumer (num_pending)',
  unit: '{message}',
});
const consumerAckPending = meter.createObservableGauge('hc.consumer.ack_pending', {
  description: 'Messages delivered to the durable consumer and not yet acknowledged',
  unit: '{message}',
});

export interface Backlog {
  rows: number;
  oldestAgeSeconds: number;
}

/** Observes the outbox backlog with `read` at each collection; returns what stops observing. */
export function observeOutboxBacklog(read: () => Promise<Backlog>): () => void {
  const callback: BatchObservableCallback = async (observer) => {
    const backlog = await read().catch(() => undefined);
    if (!backlog) return;
    observer.observe(outboxBacklog, backlog.rows);
    observer.observe(outboxOldestAge, backlog.oldestAgeSeconds);
  };
  meter.addBatchObservableCallback(callback, [outboxBacklog, outboxOldestAge]);
  return () => meter.removeBatchObservableCallback(callback, [outboxBacklog, outboxOldestAge]);
}

/** Observes a durable consumer's lag with `read` at each collection; returns what stops observing. */
export function observeConsumerLag(
  attributes: { consumer: string; stream: string },
  read: () => Promise<{ pending: number; ackPending: number }>,
): () => void {
  const callback: BatchObservableCallback = async (observer) => {
    const lag = await read().catch(() => undefined);
    if (!lag) return;
    observer.observe(consumerPending, lag.pending, attributes);
    observer.observe(consumerAckPending, lag.ackPending, attributes);
  };
  meter.addBatchObservableCallback(callback, [consumerPending, consumerAckPending]);
  return () => meter.removeBatchObservableCallback(callback, [consumerPending, consumerAckPending]);
}
