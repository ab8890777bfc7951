import { groupedCalls, type ServiceClient } from '@hc/grpc';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type {
  CheckoutService,
  CreateCheckoutSessionRequestSchema,
  CreateCheckoutSessionResponse,
  GetCheckoutSessionRequestSchema,
  GetCheckoutSessionResponse,
} from '@hc/proto/checkout/v1';

/** Most calls in one grouped call: a burst of a thousand requests still goes out as several groups. */
const MAX_GROUP_SIZE = 128;
/** Stalled grouped calls stepped around at once, per kind (docs/batching.md). */
const MAX_STALLED = 4;

export interface GroupingSettings {
  /** Grouped calls of each kind running at once (CHECKOUT_GROUPED_CALLS); 0: every call alone. */
  readonly inFlight: number;
  /** After how long a grouped call stops holding the others back (CHECKOUT_GROUPED_CALL_STALL_MS); 0: never. */
  readonly stallMs: number;
}

/**
 * Checkout's client as the gateway uses it: creates and reads by id, the calls merchants make most,
 * go out in grouped calls (CreateCheckoutSessions, GetCheckoutSessions; docs/batching.md) while
 * `inFlight` grouped calls of their kind are already running; a call made when fewer are running goes
 * out at the end of the event loop's turn, with the calls made in that turn. A grouped call running
 * longer than `stallMs` stops counting, so one slow caller's group cannot hold every other caller back. Every caller gets the answer or the
 * error its single call would have given. `inFlight` 0 leaves every call alone (the single RPCs, as
 * before), as does a call that passes its own options.
 */
export function groupedCheckoutClient(
  checkout: ServiceClient<typeof CheckoutService>,
  { inFlight, stallMs }: GroupingSettings,
): ServiceClient<typeof CheckoutService> {
  if (inFlight === 0) return checkout;
  const options = {
    maxInFlight: inFlight,
    maxGroupSize: MAX_GROUP_SIZE,
    ...(stallMs > 0 ? { stallMs, maxStalled: MAX_STALLED } : {}),
  };
  const createGrouped = groupedCalls<MessageInitShape<typeof CreateCheckoutSessionRequestSchema>, CreateCheckoutSessionResponse>({
    ...options,
    send: (calls, requestIds, ctx) =>
      checkout.createCheckoutSessions({ calls: [...calls], requestIds: [...requestIds] }, { ...ctx, requestId: requestIds[0]! }),
  });
  const readGrouped = groupedCalls<MessageInitShape<typeof GetCheckoutSessionRequestSchema>, GetCheckoutSessionResponse>({
    ...options,
    send: (calls, requestIds, ctx) =>
      checkout.getCheckoutSessions({ calls: [...calls], requestIds: [...requestIds] }, { ...ctx, requestId: requestIds[0]! }),
  });
  // A call with options of its own (a deadline) goes alone: a grouped call has the client's default.
  return {
    ...checkout,
    createCheckoutSession: (request, ctx, callOptions) =>
      callOptions ? checkout.createCheckoutSession(request, ctx, callOptions) : createGrouped(request, ctx),
    getCheckoutSession: (request, ctx, callOptions) =>
      callOptions ? checkout.getCheckoutSession(request, ctx, callOptions) : readGrouped(request, ctx),
  };
}
