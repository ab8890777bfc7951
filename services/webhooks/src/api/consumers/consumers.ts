import { groupCommitEach } from '@hc/batching';
import {
  consumeDurable,
  currentTraceparent,
  ensureStream,
  type DurableConsumer,
  type EventRetention,
  type NatsConnection,
} from '@hc/events';
import { CUSTOMER_ERASED, decodeEvent, PAYMENT_EVENT } from '@hc/events/contracts';
import type { Logger } from '@hc/logging';
import { eraseCustomer, ERASURE_CONSUMER } from '../../use-cases/erase-customer.ts';
import type { WebhooksDependencies } from '../../use-cases/dependencies.ts';
import {
  PAYMENT_EVENTS_CONSUMER,
  recordPaymentEvents,
  type RecordOutcome,
  type SourceMessage,
} from '../../use-cases/record-payment-event.ts';
import { checkoutStream, customerErasedFilter, customersStream, paymentEventsFilter } from '../../adapters/streams.ts';

/**
 * Pull subscriptions on the payment events consumer. Each feeds one message at a time, so this many
 * messages can be in hand at once; they are applied together by one transaction (recordInGroups).
 */
export const PAYMENT_EVENT_PULLERS = 8;

/**
 * The two durable consumers of this context. Durable names equal the processed-messages consumer
 * names, so replicas share them and each message is applied once (markProcessed in the same
 * transaction as the change). A message that fails is redelivered later by JetStream.
 *
 * Payment events come in bursts (every payment makes several): the consumer runs several pull
 * subscriptions on its durable (as replicas would), and the messages they hold are recorded in one
 * transaction while the previous one commits. Each message is acked only after the transaction that
 * applied it committed, so a crash loses nothing (JetStream redelivers, markProcessed dedupes).
 */
export async function startConsumers(
  nats: NatsConnection,
  prefix: string,
  retention: EventRetention,
  deps: WebhooksDependencies,
  logger: Logger,
): Promise<DurableConsumer[]> {
  await ensureStream(nats, checkoutStream(prefix, retention));
  await ensureStream(nats, customersStream(prefix, retention));
  const record = recordInGroups(deps);
  const payments: DurableConsumer[] = [];
  for (let i = 0; i < PAYMENT_EVENT_PULLERS; i += 1) {
    payments.push(
      await consumeDurable({
        nats,
        stream: checkoutStream(prefix, retention).name,
        durable: PAYMENT_EVENTS_CONSUMER,
        filterSubject: paymentEventsFilter(prefix),
        ackWaitMs: deps.settings.eventAckWaitMs,
        logger,
        // A payload that is not hc.checkout.v1.PaymentEvent is dead-lettered, never recorded (ADR 0022).
        decode: (data) => decodeEvent(PAYMENT_EVENT, data),
        deadLetter: { prefix, retention },
        handle: async (message) => {
          // Taken here, in this message's consumer span: the group commit records many messages in one transaction.
          const outcome = await record({ msgId: message.msgId, data: message.data, traceParent: currentTraceparent() });
          if (outcome.kind === 'ignored') logger.error({ msgId: message.msgId, subject: message.subject }, 'not a payment event; skipped');
        },
      }),
    );
  }
  const erasures = await consumeDurable({
    nats,
    stream: customersStream(prefix, retention).name,
    durable: ERASURE_CONSUMER,
    filterSubject: customerErasedFilter(prefix),
    ackWaitMs: deps.settings.eventAckWaitMs,
    logger,
    decode: (data) => decodeEvent(CUSTOMER_ERASED, data),
    deadLetter: { prefix, retention },
    handle: async (message) => {
      const scrubbed = await eraseCustomer(deps, message.msgId, message.data);
      logger.info({ msgId: message.msgId, scrubbedEvents: scrubbed }, 'customer erasure applied');
    },
  });
  return [...payments, erasures];
}

/**
 * Records payment events with group commit (@hc/batching's groupCommitEach): a message that arrives while
 * a transaction runs waits for the next one, which takes every message waiting. A promise settles once
 * its message's transaction has committed (or failed). When a transaction of several fails, each of
 * its messages is tried again alone, so one bad message cannot hold the others back.
 */
export function recordInGroups(deps: WebhooksDependencies): (message: SourceMessage) => Promise<RecordOutcome> {
  return groupCommitEach<SourceMessage, RecordOutcome>({
    many: (messages) => recordPaymentEvents(deps, messages),
    one: async (message) => (await recordPaymentEvents(deps, [message]))[0]!,
  });
}
