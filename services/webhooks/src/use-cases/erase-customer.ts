import type { CustomerErased } from '@hc/proto/customers/v1/events';
import type { WebhooksDependencies } from './dependencies.ts';

/** The processed-messages name of the erasure consumer. */
export const ERASURE_CONSUMER = 'webhooks_customer_erasures';

/**
 * Honours `customers.customer.erased` (docs/events.md): the listed payments' events lose the buyer's
 * details in the log, and events of those payments made later never carry them.
 * The event comes decoded (the consumer dead-letters a payload that is not CustomerErased).
 * Returns how many events were scrubbed, or null for a duplicate.
 */
export async function eraseCustomer(deps: WebhooksDependencies, msgId: string, erased: CustomerErased): Promise<number | null> {
  return deps.erasures.erase(
    ERASURE_CONSUMER,
    msgId,
    { accountId: erased.accountId, livemode: erased.livemode },
    erased.paymentIds,
    deps.now(),
  );
}
