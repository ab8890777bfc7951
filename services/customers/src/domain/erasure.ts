import type { JsonObject } from '@bufbuild/protobuf';
import { CUSTOMER_ERASED, eventPayload } from '@hc/events/contracts';
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
  /**
   * Per payment, the email revision this context knew the order under (checkout's customer_revision).
   * A payment restarted since with another email (a revision this context had not applied yet) holds
   * another buyer's email, which the erasure must not touch.
   */
  emailRevisions: Record<string, number>;
}

export { CUSTOMER_ERASED_SUBJECT } from '@hc/events/contracts';

export function customerErasedEvent(
  customer: Scope & { id: string },
  orders: readonly { id: string; emailRevision: number }[],
  at: Date,
): CustomerErasedEvent {
  return {
    // Deterministic: erasing again can never publish a second event.
    id: `${customer.id}.erased`,
    type: 'customer.erased',
    occurredAt: at.getTime(),
    accountId: customer.accountId,
    livemode: customer.livemode,
    customerId: customer.id,
    paymentIds: orders.map((order) => order.id),
    emailRevisions: Object.fromEntries(orders.map((order) => [order.id, order.emailRevision])),
  };
}

/** The outbox payload: the hc.customers.v1.CustomerErased message, in the events' JSON (docs/adr/0022). */
export function customerErasedPayload(event: CustomerErasedEvent): JsonObject {
  return eventPayload(CUSTOMER_ERASED, event);
}
