import type { Scope } from './customer.ts';

/**
 * `customers.customer.erased` (docs/events.md, "Customers context"): every context that keeps
 * personal data of the listed payments removes it. It carries ids only, never personal data.
 */
export interface CustomerErasedEvent extends Scope {
  id: string;
  type: 'customer.erased';
  /** Unix milliseconds. */
  occurredAt: number;
  customerId: string;
  /** The pay_ ids of the customer's orders. */
  paymentIds: string[];
}

export const CUSTOMER_ERASED_SUBJECT = 'customers.customer.erased';

export function customerErasedEvent(customer: Scope & { id: string }, paymentIds: readonly string[], at: Date): CustomerErasedEvent {
  return {
    // Deterministic: erasing again can never publish a second event.
    id: `${customer.id}.erased`,
    type: 'customer.erased',
    occurredAt: at.getTime(),
    accountId: customer.accountId,
    livemode: customer.livemode,
    customerId: customer.id,
    paymentIds: [...paymentIds],
  };
}
