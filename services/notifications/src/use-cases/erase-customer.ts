import { markProcessed } from '@hc/events';
import type { CustomerErased } from '@hc/proto/customers/v1/events';
import type { NotificationsDependencies } from './dependencies.ts';

/** The processed-messages name (and durable) of the erasure consumer; it joins the erase barrier (docs/events.md). */
export const ERASURE_CONSUMER = 'notifications_customer_erasures';

/** Removes the erased buyer's address and name from the mail log and queued mails (ADR 0017); returns mails scrubbed. */
export async function eraseCustomer(deps: NotificationsDependencies, msgId: string, event: CustomerErased): Promise<number> {
  return deps.sql.transaction(async (client) => {
    if (!(await markProcessed(client, ERASURE_CONSUMER, msgId))) return 0;
    if (event.paymentIds.length === 0) return 0;
    return deps.mails.erasePayments(client, event.accountId, event.paymentIds);
  });
}
