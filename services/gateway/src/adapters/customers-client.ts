import type { MessageInitShape } from '@bufbuild/protobuf';
import { groupedCalls, groupedReadOrEachAlone, type ServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import type { CustomersService, ListCustomersRequestSchema, ListCustomersResponse } from '@hc/proto/customers/v1';
import { groupedCallOptions, type GroupingSettings } from './checkout-client.ts';

type ListRequest = MessageInitShape<typeof ListCustomersRequestSchema>;

/**
 * The customers client as the gateway uses it: `GET /v1/customers` lists go out grouped in
 * `ListCustomerPages` (docs/batching.md, ADR 0113), as checkout's lists do, with the same grouping
 * settings. Each list waits on its own read barrier in the customers service, so a grouped call has
 * the deadline of a read that waits (`waitingTimeoutMs`, the routes' `callTimeoutMs(readWaitMs)`);
 * a list that asks for that deadline goes grouped, one with any other options goes alone. A customers
 * service of the previous release (a rolling upgrade) has no ListCustomerPages: each list alone.
 */
export function groupedCustomersClient(
  customers: ServiceClient<typeof CustomersService>,
  settings: GroupingSettings,
  waitingTimeoutMs: number,
  logger: Logger,
): ServiceClient<typeof CustomersService> {
  if (settings.inFlight === 0) return customers;
  const listGrouped = groupedCalls<ListRequest, ListCustomersResponse>({
    // A list's deadline is that of a read that waits, counted from when the list was asked.
    ...groupedCallOptions({ ...settings, deadlineMs: waitingTimeoutMs }),
    send: (calls, requestIds, ctx, timeoutMs) =>
      groupedReadOrEachAlone<ListRequest, ListCustomersResponse>(
        () =>
          customers.listCustomerPages(
            { calls: [...calls], requestIds: [...requestIds] },
            { ...ctx, requestId: requestIds[0]! },
            { timeoutMs },
          ),
        { calls, requestIds, logger, rpc: 'ListCustomers' },
        (call, requestId) => customers.listCustomers(call, { ...ctx, requestId }, { timeoutMs }),
      ),
  });
  return {
    ...customers,
    listCustomers: (request, ctx, callOptions) =>
      callOptions === undefined || callOptions.timeoutMs === waitingTimeoutMs
        ? listGrouped(request, ctx)
        : customers.listCustomers(request, ctx, callOptions),
  };
}
