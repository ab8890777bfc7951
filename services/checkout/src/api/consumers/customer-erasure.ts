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
import { CUSTOMER_ERASED, CUSTOMER_ERASED_SUBJECT, decodeEvent } from '@hc/events/contracts';
import type { Logger } from '@hc/logging';
import type { CheckoutDependencies } from '../../use-cases/dependencies.ts';
import { eraseCustomerEmails } from '../../use-cases/erase-customer-emails.ts';
import { checkoutStream, paymentMessagesFilter } from '../../adapters/checkout-stream.ts';

/** Durable consumer name: replicas of checkout share it. */
export const ERASURE_CONSUMER = 'checkout-customer-erasure';

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
  deps: Pick<CheckoutDependencies, 'payments'>,
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
    filterSubject: prefixedSubject(prefix, CUSTOMER_ERASED_SUBJECT),
    logger,
    // A payload that is not hc.customers.v1.CustomerErased is dead-lettered, never applied (ADR 0022).
    decode: (data) => decodeEvent(CUSTOMER_ERASED, data),
    deadLetter: { prefix, retention },
    async handle(message) {
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
