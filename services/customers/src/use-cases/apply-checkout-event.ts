import type { ConsumedMessage } from '@hc/events';
import {
  parseCheckoutEvent,
  type CheckoutEvent,
  type PaymentChanged,
  type SessionCreated,
  type SessionStarted,
} from '../domain/checkout-events.ts';
import { type Order, type Scope } from '../domain/customer.ts';
import { withPaymentPaid } from '../domain/counters.ts';
import { applyPayment, decideStart } from '../domain/order-rules.ts';
import type { CustomersTransaction } from '../store/customers-store.ts';
import { attachOrder, detachOrder } from './order-ownership.ts';
import type { CustomersDependencies } from './dependencies.ts';

/**
 * An event about an order whose session.created has not been applied yet (the consumer retries a
 * failed message while later ones flow, so events of one session can arrive out of order). Thrown so
 * the message is redelivered later, after session.created.
 */
export class OrderNotYetKnownError extends Error {
  override name = 'OrderNotYetKnownError';
}

export type ApplyResult = 'applied' | 'duplicate' | 'ignored';

/**
 * Applies one checkout-stream message to customers and orders, exactly once per message id: the
 * change and the processed-message record commit in one transaction (a redelivery is 'duplicate').
 * Event types this context does not read are 'ignored' (and acknowledged).
 */
export async function applyCheckoutEvent(deps: CustomersDependencies, consumer: string, message: ConsumedMessage): Promise<ApplyResult> {
  return applyDecodedCheckoutEvent(deps, consumer, message.msgId, parseCheckoutEvent(message.data));
}

/** applyCheckoutEvent for an event the consumer already decoded (parseCheckoutEvent; null: a type this context does not read). */
export async function applyDecodedCheckoutEvent(
  deps: CustomersDependencies,
  consumer: string,
  msgId: string,
  event: CheckoutEvent | null,
): Promise<ApplyResult> {
  if (event === null) return 'ignored';
  const applied = await deps.store.applyOnce(consumer, msgId, (tx) => applyEvent(tx, event));
  return applied ? 'applied' : 'duplicate';
}

/**
 * Group commit (docs/adr/0033): the consumer's waiting messages applied in order in one transaction,
 * each once per message id. Any failure (an order event before its session.created, a database
 * error) rolls the whole group back and is rethrown; the consumer then applies the messages one by
 * one. Resolves how many were applied (not duplicates or ignored types).
 */
export async function applyCheckoutEventsTogether(
  deps: CustomersDependencies,
  consumer: string,
  messages: readonly { msgId: string; event: CheckoutEvent | null }[],
): Promise<number> {
  const items = messages.flatMap(({ msgId, event }) =>
    event === null ? [] : [{ msgId, work: (tx: CustomersTransaction) => applyEvent(tx, event) }],
  );
  if (items.length === 0) return 0;
  return deps.store.applyManyOnce(consumer, items, (tx, fresh) =>
    tx.holdCustomersByEmail(newOrdersCustomers(messages.filter(({ msgId }) => fresh.has(msgId)))),
  );
}

/**
 * The customers a group's new orders will be added to (rule 2), to find or create and lock together
 * before the events are applied one after the other. Exactly the customers applying the events creates:
 * a session created twice in the group (a producer bug, of which only the first counts) is left out.
 */
function newOrdersCustomers(messages: readonly { event: CheckoutEvent | null }[]): { scope: Scope; email: string; firstSeenAt: Date }[] {
  const created = messages.flatMap(({ event }) => (event?.type === 'session.created' ? [event] : []));
  const timesCreated = new Map<string, number>();
  for (const event of created) timesCreated.set(event.session.id, (timesCreated.get(event.session.id) ?? 0) + 1);
  return created.flatMap((event) =>
    event.session.customerEmail === null || timesCreated.get(event.session.id) !== 1
      ? []
      : [
          {
            scope: { accountId: event.accountId, livemode: event.livemode },
            email: event.session.customerEmail,
            firstSeenAt: event.session.createdAt,
          },
        ],
  );
}

function applyEvent(tx: CustomersTransaction, event: CheckoutEvent): Promise<void> {
  if (event.type === 'session.created') return applySessionCreated(tx, event);
  if (event.type === 'session.started') return applySessionStarted(tx, event);
  return applyPaymentChanged(tx, event);
}

/** A new order; with an email it belongs to that email's customer at once (rule 2), else it keeps its details (rule 4). */
async function applySessionCreated(tx: CustomersTransaction, event: SessionCreated): Promise<void> {
  const scope = { accountId: event.accountId, livemode: event.livemode };
  const { session, customer: details } = event;
  const order: Order = {
    ...scope,
    id: session.id,
    customerId: null,
    email: session.customerEmail,
    name: details.name,
    phone: details.phone,
    shippingAddress: details.shippingAddress,
    billingAddress: details.billingAddress,
    storeAccount: details.storeAccount,
    amount: session.amount,
    currency: session.currency,
    status: session.status,
    statusAt: event.occurredAt,
    createdAt: session.createdAt,
    paidAt: null,
    emailRevision: 0,
    paid: false,
    paidAmount: '0.00',
  };
  // A second session.created for one session (another message id) would be a producer bug: keep the first.
  if (!(await tx.insertOrder(order))) return;
  if (order.email === null) return;
  const customer = await tx.findOrCreateCustomer(scope, order.email, session.createdAt);
  await attachOrder(tx, customer, order, event.occurredAt);
}

/** The buyer gave (or changed) the email at start: the order gets its customer (rule 2) or moves (rule 5). */
async function applySessionStarted(tx: CustomersTransaction, event: SessionStarted): Promise<void> {
  const scope = { accountId: event.accountId, livemode: event.livemode };
  const order = await tx.lockOrder(scope, event.sessionId);
  if (!order) throw new OrderNotYetKnownError(`order ${event.sessionId} has no session.created yet`);
  const current = order.customerId === null ? null : await tx.lockCustomer(order.customerId);
  const decision = decideStart(order, current, event.revision, event.customerEmail);
  if (decision.kind === 'stale') return;
  const restarted: Order = { ...order, email: event.customerEmail, emailRevision: event.revision };
  if (decision.kind === 'same_customer') {
    await tx.saveOrder(restarted);
    return;
  }
  if (decision.kind === 'move' && current) await detachOrder(tx, current, order, event.occurredAt);
  const target = await tx.findOrCreateCustomer(scope, event.customerEmail, event.occurredAt);
  await attachOrder(tx, target, { ...restarted, customerId: null }, event.occurredAt);
}

/** Status changes; a payment.paid also adds to the customer's spent and paid orders. */
async function applyPaymentChanged(tx: CustomersTransaction, event: PaymentChanged): Promise<void> {
  const scope = { accountId: event.accountId, livemode: event.livemode };
  const order = await tx.lockOrder(scope, event.payment.id);
  if (!order) throw new OrderNotYetKnownError(`order ${event.payment.id} has no session.created yet`);
  const outcome = applyPayment(order, event);
  await tx.saveOrder(outcome.order);
  // Without a customer yet, the paid state waits on the order; attachOrder carries it over later.
  if (outcome.paid === null || order.customerId === null) return;
  const customer = await tx.lockCustomer(order.customerId);
  if (!customer) throw new Error(`order ${order.id} points to a missing customer ${order.customerId}`);
  const counters = withPaymentPaid(customer, order.currency, outcome.paid.amount, outcome.paid.orderWasPaid);
  await tx.saveCustomer(customer, { ...customer, ...counters }, event.occurredAt);
}
