import { answerEach, type CallContext, type ServiceHandlers } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import type { CustomersService, ListCustomersRequest } from '@hc/proto/customers/v1';
import { getCustomerNote, setCustomerNote } from '../../use-cases/customer-note.ts';
import type { CustomersDependencies } from '../../use-cases/dependencies.ts';
import { eraseCustomerEverywhere } from '../../use-cases/erase-customer.ts';
import { awaitCheckoutWrites, type Barriers } from '../../use-cases/read-barrier.ts';
import { getCustomer, getOrder, listCustomers, listOrders } from '../../use-cases/read-customers.ts';
import { customerMessage, orderMessage } from './messages.ts';

/**
 * gRPC handlers: proto in, use case, proto out. No rules here; the scope always comes from call
 * metadata. Every call first waits for the caller's read barrier (docs/adr/0011), when it sends one.
 */
export function customersHandlers(
  deps: CustomersDependencies,
  barriers: Barriers,
  logger: Logger,
): ServiceHandlers<typeof CustomersService> {
  const list = async (request: ListCustomersRequest, ctx: CallContext) => {
    await awaitCheckoutWrites(barriers, request.barrier);
    const page = await listCustomers(deps, ctx, request);
    return { customers: page.items.map(customerMessage), hasMore: page.hasMore };
  };

  return {
    async getCustomer(request, ctx) {
      await awaitCheckoutWrites(barriers, request.barrier);
      return { customer: customerMessage(await getCustomer(deps, ctx, request.id)) };
    },

    listCustomers: list,

    // Grouped lists (docs/batching.md): each runs as its single call would, all at once.
    async listCustomerPages(request, ctx) {
      return {
        outcomes: await answerEach(request.calls, request.requestIds, logger, 'ListCustomerPages', (call, requestId) =>
          list(call, { ...ctx, requestId }),
        ),
      };
    },

    async getOrder(request, ctx) {
      await awaitCheckoutWrites(barriers, request.barrier);
      return { order: orderMessage(await getOrder(deps, ctx, request.id)) };
    },

    async listOrders(request, ctx) {
      await awaitCheckoutWrites(barriers, request.barrier);
      const page = await listOrders(deps, ctx, request);
      return { orders: page.items.map(orderMessage), hasMore: page.hasMore };
    },

    async eraseCustomer(request, ctx) {
      return { customer: customerMessage(await eraseCustomerEverywhere(deps, barriers, ctx, request.id, request.barrier)) };
    },

    async setCustomerNote(request, ctx) {
      await awaitCheckoutWrites(barriers, request.barrier);
      await setCustomerNote(deps, ctx, request.id, request.note);
      return {};
    },

    async getCustomerNote(request, ctx) {
      await awaitCheckoutWrites(barriers, request.barrier);
      return { note: (await getCustomerNote(deps, ctx, request.id)) ?? undefined };
    },
  };
}
