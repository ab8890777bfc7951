import { groupedCalls, groupedReadOrEachAlone, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import type { GetHostedSessionResponse, HostedCheckoutService } from '@hc/proto/checkout/v1';

type HostedClient = ServiceClient<typeof HostedCheckoutService, PublicCallContext>;
type ViewRequest = Parameters<HostedClient['getHostedSession']>[0];

/** Grouped views running at once (as the gateway's CHECKOUT_GROUPED_CALLS default). */
const IN_FLIGHT = 1;
/** Most views in one grouped call. */
const MAX_GROUP_SIZE = 128;
/** A grouped call running longer than this stops holding the next group back (docs/batching.md). */
const STALL_MS = 100;
const MAX_STALLED = 4;

/**
 * Checkout's hosted client as the pages use it: the buyers' page views (`GetHostedSession`, one per
 * `/pay/{id}` view and status poll) go out grouped in `GetHostedSessions` (docs/batching.md), the way
 * the gateway groups merchants' reads: a view made while a grouped call is in flight waits for the
 * next group, a lone one goes out at the end of the event loop's turn. Each view gets the answer or
 * the error its single call would have given. Every other call goes alone, as before.
 */
export function groupedHostedClient(checkout: HostedClient, deadlineMs: number, logger: Logger): HostedClient {
  const viewsGrouped = groupedCalls<ViewRequest, GetHostedSessionResponse, PublicCallContext>({
    maxInFlight: IN_FLIGHT,
    maxGroupSize: MAX_GROUP_SIZE,
    stallMs: STALL_MS,
    maxStalled: MAX_STALLED,
    // A view still waiting for a group after the deadline is answered at once, never sent (load shedding).
    deadlineMs,
    // A checkout of the previous release (a rolling upgrade) has no GetHostedSessions: each view alone.
    send: (calls, requestIds, ctx, timeoutMs) =>
      groupedReadOrEachAlone<ViewRequest, GetHostedSessionResponse>(
        () => checkout.getHostedSessions({ calls: [...calls], requestIds: [...requestIds] }, ctx, { timeoutMs }),
        { calls, requestIds, logger, rpc: 'GetHostedSession' },
        (call, requestId) => checkout.getHostedSession(call, { requestId }, { timeoutMs }),
      ),
  });
  return {
    ...checkout,
    // A call with options of its own (a deadline) goes alone: a grouped call has GRPC_TIMEOUT_MS from when it was made.
    getHostedSession: (request, ctx, callOptions) =>
      callOptions ? checkout.getHostedSession(request, ctx, callOptions) : viewsGrouped(request, ctx),
  };
}
