import { consumeDurable, contextStream, ensureStream, prefixedSubject, type DurableConsumer, type NatsConnection } from '@hc/events';
import type { Logger } from '@hc/logging';
import type { CheckoutSessionStore } from '../store/checkout-sessions.ts';

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

/**
 * Honours the customers context's erasure (docs/events.md): the erased buyer's email leaves their
 * payments, so reads, lists and later payment events no longer carry it. Once per message.
 */
export async function consumeCustomerErasures(
  nats: NatsConnection,
  prefix: string,
  sessions: CheckoutSessionStore,
  logger: Logger,
): Promise<DurableConsumer> {
  const stream = contextStream(prefix, 'customers');
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
      const erased = await sessions.eraseCustomerEmails(
        event,
        event.paymentIds,
        event.emailRevisions ?? {},
        ERASURE_CONSUMER,
        message.msgId,
      );
      logger.info({ customerId: event.customerId, payments: erased }, 'customer erasure: emails removed from payments');
    },
  });
}
