import type { Router } from 'express';
import { ApiError } from '@hc/errors';
import type { CheckoutService } from '@hc/proto/checkout/v1';
import type { CustomersService } from '@hc/proto/customers/v1';
import { callTimeoutMs, sharedWritesBarrier, type ServiceClient } from '@hc/grpc';
import { callContext } from '../locals.ts';
import { customerObject, orderObject } from '../presenters/customer.ts';
import { listQuery, optionalQueryString } from '../validation/payment-schemas.ts';
import { answerJson } from '../answer.ts';

export interface CustomerRoutes {
  customers: ServiceClient<typeof CustomersService>;
  checkout: ServiceClient<typeof CheckoutService>;
  /** How long a read may wait for the caller's answered writes to be applied (docs/adr/0011). */
  readWaitMs: number;
}

/**
 * Customers and orders: read-only (the spec's rule 6), served by the customers context. Every read
 * reflects every write already answered (read-your-writes, docs/adr/0011) or answers the retryable
 * 503 catching_up; never stale data.
 */
export function customerRoutes(router: Router, { customers, checkout, readWaitMs }: CustomerRoutes): void {
  // The reads in flight together share one checkout call (docs/adr/0097).
  const writesBarrier = sharedWritesBarrier(checkout, readWaitMs);
  const barrier = (res: Parameters<typeof callContext>[0]) => writesBarrier(callContext(res));
  // The customers call waits on the barrier too: its deadline outlasts the wait.
  const waiting = { timeoutMs: callTimeoutMs(readWaitMs) };

  router.get('/customers', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const { limit, startingAfter } = listQuery(query);
    const email = optionalQueryString(query, 'email', 'invalid_email');
    const page = await customers.listCustomers({ limit, startingAfter, email, barrier: await barrier(res) }, callContext(res), waiting);
    const data = page.customers.map(customerObject);
    answerJson(res, 200, { data, has_more: page.hasMore, next_cursor: page.hasMore ? (data.at(-1)?.id ?? null) : null });
  });

  router.get('/customers/:id', async (req, res) => {
    const { customer } = await customers.getCustomer({ id: req.params.id, barrier: await barrier(res) }, callContext(res), waiting);
    if (!customer) throw new ApiError('internal_error');
    answerJson(res, 200, customerObject(customer));
  });

  router.get('/orders', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const { limit, startingAfter } = listQuery(query);
    const customerId = optionalQueryString(query, 'customer_id', 'invalid_request');
    const page = await customers.listOrders({ limit, startingAfter, customerId, barrier: await barrier(res) }, callContext(res), waiting);
    const data = page.orders.map(orderObject);
    answerJson(res, 200, { data, has_more: page.hasMore, next_cursor: page.hasMore ? (data.at(-1)?.id ?? null) : null });
  });

  router.get('/orders/:id', async (req, res) => {
    const { order } = await customers.getOrder({ id: req.params.id, barrier: await barrier(res) }, callContext(res), waiting);
    if (!order) throw new ApiError('internal_error');
    answerJson(res, 200, orderObject(order));
  });
}
