import type { Customer, Order } from '../domain/customer.ts';
import { withOrderAdded, withOrderRemoved } from '../domain/counters.ts';
import { detailsFromOrders, mergeContactDetails, mergeStoreAccounts } from '../domain/details.ts';
import type { CustomersTransaction } from '../store/customers-store.ts';

/**
 * Makes `order` one of `customer`'s orders: the customer takes the order's details (rules 3 and 4)
 * and store account, and counts the order with whatever it was paid so far. Both rows are locked by
 * the caller; returns the order with its new customer id (saved too).
 */
export async function attachOrder(tx: CustomersTransaction, customer: Customer, order: Order, at: Date): Promise<Order> {
  const attached: Order = { ...order, customerId: customer.id };
  const updated: Customer = {
    ...customer,
    ...mergeContactDetails(customer, order),
    ...withOrderAdded(customer, order),
    storeAccounts: mergeStoreAccounts(customer.storeAccounts, order.storeAccount),
  };
  await tx.saveCustomer(customer, updated, at);
  await tx.saveOrder(attached);
  return attached;
}

/**
 * Takes `order` away from `customer` (rule 5): its counts and paid amount come off the customer, and
 * the customer's details and store accounts are rebuilt from the orders it keeps, so nothing the
 * moved order brought stays behind.
 */
export async function detachOrder(tx: CustomersTransaction, customer: Customer, order: Order, at: Date): Promise<void> {
  const remaining = await tx.ordersOfCustomer(customer.id, order.id);
  const lastOrderAt = remaining.at(-1)?.createdAt ?? null;
  await tx.saveCustomer(customer, { ...customer, ...withOrderRemoved(customer, order, lastOrderAt), ...detailsFromOrders(remaining) }, at);
}
