import type { WebhooksDependencies } from './dependencies.ts';

/** The processed-messages name of the erasure consumer. */
export const ERASURE_CONSUMER = 'webhooks_customer_erasures';

interface CustomerErased {
  accountId: string;
  livemode: boolean;
  paymentIds: string[];
}

function parseCustomerErased(data: unknown): CustomerErased | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, accountId, livemode, paymentIds } = data as Record<string, unknown>;
  if (type !== 'customer.erased' || typeof accountId !== 'string' || typeof livemode !== 'boolean') return null;
  if (!Array.isArray(paymentIds) || !paymentIds.every((id): id is string => typeof id === 'string')) return null;
  return { accountId, livemode, paymentIds };
}

/**
 * Honours `customers.customer.erased` (docs/events.md): the listed payments' events lose the buyer's
 * details in the log, and events of those payments made later never carry them.
 * Returns how many events were scrubbed, or null for a duplicate or a payload it cannot read.
 */
export async function eraseCustomer(deps: WebhooksDependencies, msgId: string, data: unknown): Promise<number | null> {
  const erased = parseCustomerErased(data);
  if (!erased) return null;
  return deps.erasures.erase(
    ERASURE_CONSUMER,
    msgId,
    { accountId: erased.accountId, livemode: erased.livemode },
    erased.paymentIds,
    deps.now(),
  );
}
