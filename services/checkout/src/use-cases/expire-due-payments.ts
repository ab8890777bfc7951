import { expiryTransition } from '../domain/payment-transitions.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/**
 * The sweeper's one pass: expires every unpaid payment at or past its expiry, in batches, each with
 * its `payment.expired` event, so the event goes out within minutes even if nobody reads the payment.
 * Safe to run on several replicas at once: each change is re-checked under the payment's row lock.
 */
export async function expireDuePayments(deps: CheckoutDependencies, batchSize = 100): Promise<number> {
  let expired = 0;
  for (;;) {
    const now = deps.now();
    const due = await deps.payments.dueForExpiry(now, batchSize);
    for (const { id, accountId, livemode } of due) {
      const result = await deps.payments.change({ accountId, livemode }, id, now, (payment) => expiryTransition(payment, now));
      if (result?.changed) expired += 1;
    }
    if (due.length < batchSize) return expired;
  }
}
