import { ApiError } from '@hc/errors';
import { answerEach, groupedCalls, type PublicCallContext, type ServiceClient } from '@hc/grpc';
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
export function groupedHostedClient(checkout: HostedClient, logger: Logger): HostedClient {
  const viewsGrouped = groupedCalls<ViewRequest, GetHostedSessionResponse, PublicCallContext>({
    maxInFlight: IN_FLIGHT,
    maxGroupSize: MAX_GROUP_SIZE,
    stallMs: STALL_MS,
    maxStalled: MAX_STALLED,
    send: async (calls, requestIds, ctx) => {
      try {
        return await checkout.getHostedSessions({ calls: [...calls], requestIds: [...requestIds] }, ctx);
      } catch (error) {
        // A checkout of the previous release (a rolling upgrade) has no GetHostedSessions: grpc-js's
        // UNIMPLEMENTED reads as internal_error. A view is a read, safe to ask again: each alone.
        if (!(error instanceof ApiError) || error.code !== 'internal_error') throw error;
        // answerEach maps each single call's error to its outcome, as checkout does for a grouped call.
        const alone = (call: ViewRequest, requestId: string) => checkout.getHostedSession(call, { requestId });
        return { outcomes: await answerEach(calls, requestIds, logger, 'GetHostedSession', alone) };
      }
    },
  });
  return {
    ...checkout,
    // A call with options of its own (a deadline) goes alone: a grouped call has the client's default.
    getHostedSession: (request, ctx, callOptions) =>
      callOptions ? checkout.getHostedSession(request, ctx, callOptions) : viewsGrouped(request, ctx),
  };
}
