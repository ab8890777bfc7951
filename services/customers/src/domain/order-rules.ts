import { Decimal } from '@hc/money';
import type { Order } from './customer.ts';
import type { PaymentChanged } from './checkout-events.ts';

/**
 * What a `session.started` does to an order (rules 2, 4 and 5). `revision` counts the session's email
 * changes, so a redelivered or late start (revision not above the one applied) changes nothing.
 */
export type StartDecision =
  /** Not newer than what the order already reflects: ignore. */
  | { kind: 'stale' }
  /** Same email as the order's current (non-erased) customer: only the revision is recorded. */
  | { kind: 'same_customer' }
  /** The order had no customer (created without an email): it gets one now, with its kept details (rule 4). */
  | { kind: 'attach' }
  /** Another email than its customer's, or its customer was erased: the order moves (rule 5). */
  | { kind: 'move' };

export function decideStart(
  order: Pick<Order, 'emailRevision' | 'customerId'>,
  currentCustomer: { email: string | null; erased: boolean } | null,
  revision: number,
  email: string,
): StartDecision {
  if (revision <= order.emailRevision) return { kind: 'stale' };
  if (order.customerId === null || currentCustomer === null) return { kind: 'attach' };
  // An erased customer has no email any more: the same address now belongs to a new customer (rule 7).
  if (!currentCustomer.erased && currentCustomer.email === email) return { kind: 'same_customer' };
  return { kind: 'move' };
}

// How far along its life a status is: of two events in the same millisecond (a start and a simulated
// payment often are), the later stage wins, whatever order they are processed in.
const STAGE: Readonly<Record<string, number>> = { open: 0, pending: 1, expired: 2, failed: 3, held: 3, paid: 4 };

/**
 * Whether the event's status replaces the order's: a later event does, a redelivered older one does
 * not, and nothing moves a paid order back (spec: a paid order is never undone by a later event).
 */
function supersedes(event: PaymentChanged, order: Order): boolean {
  if (order.status === 'paid' && event.payment.status !== 'paid') return false;
  const at = event.occurredAt.getTime();
  const current = order.statusAt.getTime();
  if (at !== current) return at > current;
  return (STAGE[event.payment.status] ?? 0) >= (STAGE[order.status] ?? 0);
}

/** How a payment event changes an order, and what it adds to the order's customer. */
export interface PaymentOutcome {
  order: Order;
  /** A payment.paid: the amount to add to the customer's spent, and whether the order newly counts as paid. */
  paid: { amount: string; orderWasPaid: boolean } | null;
}

/**
 * Applies a payment event to its order. The status follows the latest event by time (a redelivered
 * older one does not set it back). Every payment.paid counts (each distinct event id once, which the
 * consumer guarantees): its amount adds to the order's paid amount, so an order paid twice counts
 * both payments in `spent`, while `paid` only ever turns true once.
 */
export function applyPayment(order: Order, event: PaymentChanged): PaymentOutcome {
  const newer = supersedes(event, order);
  const updated: Order = newer
    ? { ...order, status: event.payment.status, statusAt: event.occurredAt, paidAt: event.payment.paidAt ?? order.paidAt }
    : { ...order, paidAt: order.paidAt ?? event.payment.paidAt };
  if (event.type !== 'payment.paid') return { order: updated, paid: null };
  const amount = new Decimal(event.payment.amount).toFixed(2);
  return {
    order: { ...updated, paid: true, paidAmount: new Decimal(order.paidAmount).plus(amount).toFixed(2) },
    paid: { amount, orderWasPaid: order.paid },
  };
}
