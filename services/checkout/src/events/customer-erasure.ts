import {
  consumeDurable,
  contextStream,
  ensureStream,
  prefixedSubject,
  purgeConsumedMessages,
  type DurableConsumer,
  type EventRetention,
  type NatsConnection,
} from '@hc/events';
import type { Logger } from '@hc/logging';
import type { CheckoutDependencies } from '../use-cases/dependencies.ts';
import { eraseCustomerEmails } from '../use-cases/erase-customer-emails.ts';
import { checkoutStream, paymentMessagesFilter } from './checkout-stream.ts';

/** Durable consumer name: replicas of checkout share it. */
export const ERASURE_CONSUMER = 'checkout-customer-erasure';

interface CustomerErasedEvent {
  type: 'customer.erased';
  accountId: string;
  livemode: boolean;
  customerId: string;
  paymentIds: string[];
  /** Per payment, the email revision the customers context erased (absent: erase whatever is there). */
  emailRevisions?: Record<string, number>;
}

function isCustomerErased(data: unknown): data is CustomerErasedEvent {
  const event = data as Partial<CustomerErasedEvent> | null;
  return (
    typeof event === 'object' &&
    event !== null &&
    event.type === 'customer.erased' &&
    typeof event.accountId === 'string' &&
    typeof event.livemode === 'boolean' &&
    Array.isArray(event.paymentIds) &&
    event.paymentIds.every((id) => typeof id === 'string')
  );
}

/** Thrown to have the erasure message redelivered later: some consumer still needs a message. */
export class PurgeDeferred extends Error {
  override name = 'PurgeDeferred';
}

/**
 * Honours the customers context's erasure (docs/events.md): the erased buyer's email leaves their
 * payments, so reads, lists and later payment events no longer carry it (once per message); then
 * the payments' messages leave the checkout stream (ADR 0017). A message some durable consumer has
 * not processed yet is kept: the erasure message is redelivered with back-off until every consumer
 * is past them, and the stream is purged again then.
 */
export async function consumeCustomerErasures(
  nats: NatsConnection,
  prefix: string,
  deps: Pick<CheckoutDependencies, 'sessions'>,
  retention: EventRetention,
  logger: Logger,
): Promise<DurableConsumer> {
  const stream = contextStream(prefix, 'customers', retention);
  const checkout = checkoutStream(prefix, retention).name;
  await ensureStream(nats, stream);
  return consumeDurable({
    nats,
    stream: stream.name,
    durable: ERASURE_CONSUMER,
    filterSubject: prefixedSubject(prefix, 'customers.customer.erased'),
    logger,
    async handle(message) {
      if (!isCustomerErased(message.data)) {
        logger.warn({ msgId: message.msgId }, 'customer erasure: unexpected payload; skipped');
        return;
      }
      const event = message.data;
      const erased = await eraseCustomerEmails(deps, event, ERASURE_CONSUMER, message.msgId);
      if (erased > 0) logger.info({ customerId: event.customerId, payments: erased }, 'customer erasure: emails removed from payments');
      let remaining = 0;
      let purged = 0;
      for (const paymentId of new Set(event.paymentIds)) {
        const result = await purgeConsumedMessages(nats, checkout, [paymentMessagesFilter(prefix, paymentId)]);
        remaining += result.remaining;
        purged += result.purged;
      }
      logger.info({ customerId: event.customerId, purged, remaining }, 'customer erasure: payment messages purged from the stream');
      if (remaining > 0)
        throw new PurgeDeferred(`messages on ${remaining} subject(s) of the erased payments not yet processed by every consumer`);
    },
  });
}
