import { consumeDurable, ensureStream, type DurableConsumer, type NatsConnection } from '@hc/events';
import type { Logger } from '@hc/logging';
import { eraseCustomer, ERASURE_CONSUMER } from '../use-cases/erase-customer.ts';
import type { WebhooksDependencies } from '../use-cases/dependencies.ts';
import { PAYMENT_EVENTS_CONSUMER, recordPaymentEvent } from '../use-cases/record-payment-event.ts';
import { checkoutStream, customerErasedFilter, customersStream, paymentEventsFilter } from './streams.ts';

/**
 * The two durable consumers of this context. Durable names equal the processed-messages consumer
 * names, so replicas share them and each message is applied once (markProcessed in the same
 * transaction as the change). A message that fails is redelivered later by JetStream.
 */
export async function startConsumers(
  nats: NatsConnection,
  prefix: string,
  deps: WebhooksDependencies,
  logger: Logger,
): Promise<DurableConsumer[]> {
  await ensureStream(nats, checkoutStream(prefix));
  await ensureStream(nats, customersStream(prefix));
  const payments = await consumeDurable({
    nats,
    stream: checkoutStream(prefix).name,
    durable: PAYMENT_EVENTS_CONSUMER,
    filterSubject: paymentEventsFilter(prefix),
    ackWaitMs: deps.settings.eventAckWaitMs,
    logger,
    handle: async (message) => {
      const outcome = await recordPaymentEvent(deps, message.msgId, message.data);
      if (outcome.kind === 'ignored') logger.error({ msgId: message.msgId, subject: message.subject }, 'not a payment event; skipped');
    },
  });
  const erasures = await consumeDurable({
    nats,
    stream: customersStream(prefix).name,
    durable: ERASURE_CONSUMER,
    filterSubject: customerErasedFilter(prefix),
    ackWaitMs: deps.settings.eventAckWaitMs,
    logger,
    handle: async (message) => {
      const scrubbed = await eraseCustomer(deps, message.msgId, message.data);
      logger.info({ msgId: message.msgId, scrubbedEvents: scrubbed }, 'customer erasure applied');
    },
  });
  return [payments, erasures];
}
