import { ApiError } from '@hc/errors';
import { isId } from '@hc/ids';
import type { Customer, Order, Scope } from '../domain/customer.ts';
import { normalizeEmail } from '../domain/details.ts';
import { clampLimit } from '../domain/paging.ts';
import type { CustomersDependencies } from './dependencies.ts';

export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

/** A customer of the caller's account and mode; any other id is not_found (never "exists elsewhere"). */
export async function getCustomer(deps: CustomersDependencies, scope: Scope, id: string): Promise<Customer> {
  const customer = isId('customer', id) ? await deps.store.findCustomer(scope, id) : null;
  if (!customer) throw new ApiError('not_found', 'No such customer.');
  return customer;
}

/**
 * Newest first (ties by id). The cursor must be one of the caller's customers in this mode. With
 * `email`: the one non-erased customer with that address, in any letter case, or none.
 */
export async function listCustomers(
  deps: CustomersDependencies,
  scope: Scope,
  request: { limit: number; startingAfter?: string | undefined; email?: string | undefined },
): Promise<Page<Customer>> {
  const limit = clampLimit(request.limit);
  let after: Customer | undefined;
  if (request.startingAfter !== undefined) {
    after = (isId('customer', request.startingAfter) ? await deps.store.findCustomer(scope, request.startingAfter) : null) ?? undefined;
    if (!after) throw new ApiError('invalid_cursor', undefined, 'starting_after');
  }
  const email = request.email === undefined ? undefined : normalizeEmail(request.email);
  const rows = await deps.store.listCustomers(scope, { limit: limit + 1, after, email });
  return { items: rows.slice(0, limit), hasMore: rows.length > limit };
}

export async function getOrder(deps: CustomersDependencies, scope: Scope, id: string): Promise<Order> {
  const order = isId('payment', id) ? await deps.store.findOrder(scope, id) : null;
  if (!order) throw new ApiError('not_found', 'No such order.');
  return order;
}

/** Newest first (ties by id); with `customerId`, only that customer's orders (it must be the caller's). */
export async function listOrders(
  deps: CustomersDependencies,
  scope: Scope,
  request: { limit: number; startingAfter?: string | undefined; customerId?: string | undefined },
): Promise<Page<Order>> {
  const limit = clampLimit(request.limit);
  if (request.customerId !== undefined) {
    const customer = isId('customer', request.customerId) ? await deps.store.findCustomer(scope, request.customerId) : null;
    if (!customer) throw new ApiError('not_found', 'No such customer.', 'customer_id');
  }
  let after: Order | undefined;
  if (request.startingAfter !== undefined) {
    after = (isId('payment', request.startingAfter) ? await deps.store.findOrder(scope, request.startingAfter) : null) ?? undefined;
    if (!after) throw new ApiError('invalid_cursor', undefined, 'starting_after');
  }
  const rows = await deps.store.listOrders(scope, { limit: limit + 1, after, customerId: request.customerId });
  return { items: rows.slice(0, limit), hasMore: rows.length > limit };
}
