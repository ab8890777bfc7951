import {
  consumeDurable,
  contextStream,
  ensureStream,
  prefixedSubject,
  type DurableConsumer,
  type EventRetention,
  type NatsConnection,
} from '@hc/events';
import {
  CUSTOMER_ERASED,
  CUSTOMER_ERASED_SUBJECT,
  decodeEvent,
  ENDPOINT_ALERT,
  ENDPOINT_ALERTS_SUBJECTS,
  PAYMENT_EVENT,
  PAYMENT_EVENTS_SUBJECTS,
} from '@hc/events/contracts';
import type { Logger } from '@hc/logging';
import { applyEndpointAlert, ENDPOINT_ALERTS_CONSUMER } from '../../use-cases/apply-endpoint-alert.ts';
import { applyPaymentEvent, PAYMENT_EVENTS_CONSUMER } from '../../use-cases/apply-payment-event.ts';
import type { NotificationsDependencies } from '../../use-cases/dependencies.ts';
import { eraseCustomer, ERASURE_CONSUMER } from '../../use-cases/erase-customer.ts';

/**
 * The durable consumers of this context: checkout's payment events (receipts, alerts), webhooks'
 * endpoint alerts, and customers' erasures. Each message is applied in a transaction that records it processed, and acked
 * only after that commit: a crash loses nothing (JetStream redelivers) and applies nothing twice.
 * Payloads that break their contract are dead-lettered by the shared decode (docs/adr/0022).
 */
export async function startConsumers(
  nats: NatsConnection,
  prefix: string,
  retention: EventRetention,
  ackWaitMs: number,
  deps: NotificationsDependencies,
  logger: Logger,
): Promise<DurableConsumer[]> {
  const checkout = contextStream(prefix, 'checkout', retention);
  const customers = contextStream(prefix, 'customers', retention);
  const webhooks = contextStream(prefix, 'webhooks', retention);
  // The producers may start later: ensuring a stream with its producer's own subjects changes nothing.
  await ensureStream(nats, checkout);
  await ensureStream(nats, customers);
  await ensureStream(nats, webhooks);
  const payments = await consumeDurable({
    nats,
    stream: checkout.name,
    durable: PAYMENT_EVENTS_CONSUMER,
    filterSubject: prefixedSubject(prefix, PAYMENT_EVENTS_SUBJECTS),
    ackWaitMs,
    logger,
    decode: (data) => decodeEvent(PAYMENT_EVENT, data),
    deadLetter: { prefix, retention },
    handle: async (message) => {
      const outcome = await applyPaymentEvent(deps, message.msgId, message.data);
      logger.debug({ msgId: message.msgId, outcome }, 'payment event applied');
    },
  });
  const erasures = await consumeDurable({
    nats,
    stream: customers.name,
    durable: ERASURE_CONSUMER,
    filterSubject: prefixedSubject(prefix, CUSTOMER_ERASED_SUBJECT),
    ackWaitMs,
    logger,
    decode: (data) => decodeEvent(CUSTOMER_ERASED, data),
    deadLetter: { prefix, retention },
    handle: async (message) => {
      const scrubbed = await eraseCustomer(deps, message.msgId, message.data);
      logger.info({ msgId: message.msgId, scrubbedMails: scrubbed }, 'customer erasure applied');
    },
  });
  const endpointAlerts = await consumeDurable({
    nats,
    stream: webhooks.name,
    durable: ENDPOINT_ALERTS_CONSUMER,
    filterSubject: prefixedSubject(prefix, ENDPOINT_ALERTS_SUBJECTS),
    ackWaitMs,
    logger,
    decode: (data) => decodeEvent(ENDPOINT_ALERT, data),
    deadLetter: { prefix, retention },
    handle: async (message) => {
      const queued = await applyEndpointAlert(deps, message.msgId, message.data);
      logger.debug({ msgId: message.msgId, queued }, 'endpoint alert applied');
    },
  });
  return [payments, erasures, endpointAlerts];
}
