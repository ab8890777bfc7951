import { consumeDurable, contextStream, ensureStream, type DurableConsumer, type EventRetention, type NatsConnection } from '@hc/events';
import type { Logger } from '@hc/logging';
import { parseCheckoutEvent } from '../../domain/checkout-events.ts';
import { applyCheckoutEventsTogether, applyDecodedCheckoutEvent } from '../../use-cases/apply-checkout-event.ts';
import type { CustomersDependencies } from '../../use-cases/dependencies.ts';

/** Durable name on the checkout stream; replicas share it, so each event goes to one of them. */
export const CHECKOUT_EVENTS_CONSUMER = 'customers';
export const CHECKOUT_EVENT_MAX_DELIVER = 50;

/**
 * Feeds every event of the checkout stream to applyCheckoutEvent. The stream is ensured first, so
 * this service can start before checkout ever published. A handler failure (database down, an order
 * event before its session.created) makes JetStream redeliver the message later.
 */
export async function startCheckoutEventsConsumer(
  deps: CustomersDependencies,
  nats: NatsConnection,
  subjectPrefix: string,
  retention: EventRetention,
  logger: Logger,
  options: { durable?: string | undefined; ackWaitMs?: number | undefined; onAcked?: (() => void) | undefined } = {},
): Promise<DurableConsumer> {
  const durable = options.durable ?? CHECKOUT_EVENTS_CONSUMER;
  const stream = contextStream(subjectPrefix, 'checkout', retention);
  await ensureStream(nats, stream);
  return consumeDurable({
    nats,
    stream: stream.name,
    durable,
    filterSubject: stream.subjects[0]!,
    logger,
    ackWaitMs: options.ackWaitMs,
    ...(options.onAcked ? { onAcked: options.onAcked } : {}),
    // Short first retry: an order event that overtook its session.created is usually fine 200 ms later.
    retryDelayMs: 200,
    // An event whose order never arrives (e.g. payments from before checkout published session.created)
    // must not be retried forever: unacknowledged messages count against the consumer's max_ack_pending
    // (1,000) and would at length stop all delivery. About 20 minutes of retries, then it is logged and dropped.
    maxDeliver: CHECKOUT_EVENT_MAX_DELIVER,
    // The shared contract decode, then this context's rules: a payload that breaks either is
    // dead-lettered with a log line and a metric, never applied (docs/adr/0022).
    decode: parseCheckoutEvent,
    deadLetter: { prefix: subjectPrefix, retention },
    handle: async (message) => {
      const result = await applyDecodedCheckoutEvent(deps, durable, message.msgId, message.data);
      logger.debug({ msgId: message.msgId, subject: message.subject, result }, 'checkout event');
    },
    // Group commit: what is waiting is applied in one transaction (docs/adr/0033); one transaction per
    // event was the pipeline's bottleneck (docs/performance.md).
    handleBatch: async (messages) => {
      const applied = await applyCheckoutEventsTogether(
        deps,
        durable,
        messages.map((m) => ({ msgId: m.msgId, event: m.data })),
      );
      logger.debug({ size: messages.length, applied }, 'checkout events applied together');
    },
  });
}
