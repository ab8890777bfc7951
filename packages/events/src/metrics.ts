/**
 * Metrics of the outbox and the consumers (docs/operations.md lists them with their runbook). They go
 * through @opentelemetry/api: exported when @hc/telemetry started the SDK (OTLP and/or Prometheus),
 * no-ops otherwise — the backlog query then never runs, as no reader ever collects.
 */
import { metrics, type Attributes, type BatchObservableCallback, type Observable } from '@opentelemetry/api';

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

/** The work queues of the services (webhook deliveries, mails), one series per `queue`. */
const queueDepth = meter.createObservableGauge('hc.queue.depth', {
  description: 'Items of a work queue not yet done (queue: webhooks.deliveries, notifications.mails)',
  unit: '{item}',
});
const queueOldestAge = meter.createObservableGauge('hc.queue.oldest_age', {
  description: 'Age of the oldest item of a work queue not yet done (0 when none)',
  unit: 's',
});

export interface Backlog {
  rows: number;
  oldestAgeSeconds: number;
}

/**
 * Observes a pair of gauges with `read` at each collection (never otherwise: without a metrics reader
 * the query behind `read` never runs; a failed read reports nothing); returns what stops observing.
 */
function observePair(
  gauges: [Observable, Observable],
  attributes: Attributes,
  read: () => Promise<[number, number] | undefined>,
): () => void {
  const callback: BatchObservableCallback = async (observer) => {
    const values = await read().catch(() => undefined);
    if (!values) return;
    observer.observe(gauges[0], values[0], attributes);
    observer.observe(gauges[1], values[1], attributes);
  };
  meter.addBatchObservableCallback(callback, gauges);
  return () => meter.removeBatchObservableCallback(callback, gauges);
}

/** Observes the outbox backlog with `read` at each collection; returns what stops observing. */
export function observeOutboxBacklog(read: () => Promise<Backlog>): () => void {
  return observePair([outboxBacklog, outboxOldestAge], {}, async () => {
    const b = await read();
    return [b.rows, b.oldestAgeSeconds];
  });
}

/** Observes a service's work queue (`queue` names it in the label of that name) with `read` at each collection. */
export function observeQueue(queue: string, read: () => Promise<Backlog>): () => void {
  return observePair([queueDepth, queueOldestAge], { queue }, async () => {
    const b = await read();
    return [b.rows, b.oldestAgeSeconds];
  });
}

/** Observes a durable consumer's lag with `read` at each collection; returns what stops observing. */
export function observeConsumerLag(
  attributes: { consumer: string; stream: string },
  read: () => Promise<{ pending: number; ackPending: number }>,
): () => void {
  return observePair([consumerPending, consumerAckPending], attributes, async () => {
    const lag = await read();
    return [lag.pending, lag.ackPending];
  });
}
