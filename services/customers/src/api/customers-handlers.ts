import type { ServiceHandlers } from '@hc/grpc';
import type { CustomersService } from '@hc/proto/customers/v1';
import { getCustomerNote, setCustomerNote } from '../use-cases/customer-note.ts';
import type { CustomersDependencies } from '../use-cases/dependencies.ts';
import { eraseCustomer } from '../use-cases/erase-customer.ts';
import { getCustomer, getOrder, listCustomers, listOrders } from '../use-cases/read-customers.ts';
import { customerMessage, orderMessage } from './messages.ts';

/** gRPC handlers: proto in, use case, proto out. No rules here; the scope always comes from call metadata. */
export function customersHandlers(deps: CustomersDependencies): ServiceHandlers<typeof CustomersService> {
  return {
    async getCustomer(request, ctx) {
      return { customer: customerMessage(await getCustomer(deps, ctx, request.id)) };
    },

    async listCustomers(request, ctx) {
      const page = await listCustomers(deps, ctx, request);
      return { customers: page.items.map(customerMessage), hasMore: page.hasMore };
    },

    async getOrder(request, ctx) {
      return { order: orderMessage(await getOrder(deps, ctx, request.id)) };
    },

    async listOrders(request, ctx) {
      const page = await listOrders(deps, ctx, request);
      return { orders: page.items.map(orderMessage), hasMore: page.hasMore };
    },

    async eraseCustomer(request, ctx) {
      return { customer: customerMessage(await eraseCustomer(deps, ctx, request.id)) };
    },

    async setCustomerNote(request, ctx) {
      await setCustomerNote(deps, ctx, request.id, request.note);
      return {};
    },

    async getCustomerNote(request, ctx) {
      return { note: (await getCustomerNote(deps, ctx, request.id)) ?? undefined };
    },
  };
}
