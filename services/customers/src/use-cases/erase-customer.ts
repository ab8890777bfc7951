import { ApiError } from '@hc/errors';
import { isId } from '@hc/ids';
import type { Customer, Scope } from '../domain/customer.ts';
import { CUSTOMER_ERASED_SUBJECT, customerErasedEvent, customerErasedPayload } from '../domain/erasure.ts';
import type { CustomersDependencies } from './dependencies.ts';
import { awaitCheckoutWrites, MAX_BARRIER_WAIT_MS, type BarrierRequest, type Barriers } from './read-barrier.ts';

/**
 * The operator's erase (docs/adr/0011): after checkout's answered writes are applied here (the
 * customer exists), erase, then answer only once checkout and webhooks have applied the erasure too,
 * so a payment read right after shows no email. Past the wait the erasure stands here and is still
 * on its way: catching_up, and running the command again waits again (erasing twice changes nothing).
 */
export async function eraseCustomerEverywhere(
  deps: CustomersDependencies,
  barriers: Barriers,
  scope: Scope,
  id: string,
  barrier: BarrierRequest | undefined,
): Promise<Customer> {
  const started = Date.now();
  await awaitCheckoutWrites(barriers, barrier);
  const customer = await eraseCustomer(deps, scope, id);
  const waitMs = Math.min(barrier?.waitMs ?? MAX_BARRIER_WAIT_MS, MAX_BARRIER_WAIT_MS);
  if (!(await barriers.ownEventsApplied(Math.max(0, waitMs - (Date.now() - started))))) {
    throw new ApiError('catching_up', 'The customer is erased here; the erasure has not yet reached every context. Run the command again.');
  }
  return customer;
}

/**
 * Rule 7, a dashboard action: in one transaction the customer's and its orders' personal data become
 * null here, and `customers.customer.erased` (with the orders' payment ids) is queued for the other
 * contexts, which remove theirs. Irreversible; erasing again returns the erased customer unchanged.
 */
export async function eraseCustomer(deps: CustomersDependencies, scope: Scope, id: string): Promise<Customer> {
  if (!isId('customer', id)) throw new ApiError('not_found', 'No such customer.');
  const erased = await deps.store.transaction(async (tx) => {
    const customer = await tx.lockCustomer(id, scope);
    if (!customer) return null;
    if (customer.erased) return customer;
    const now = deps.now();
    const orders = await tx.eraseCustomerData(customer.id, now);
    const event = customerErasedEvent(customer, orders, now);
    await tx.enqueue(event.id, CUSTOMER_ERASED_SUBJECT, customerErasedPayload(event));
    return null;
  });
  if (erased) return erased;
  // Read after commit, so the answer shows the erased state as stored.
  const customer = await deps.store.findCustomer(scope, id);
  if (!customer) throw new ApiError('not_found', 'No such customer.');
  return customer;
}
