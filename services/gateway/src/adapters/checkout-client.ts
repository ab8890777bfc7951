import { groupedCalls, groupedReadOrEachAlone, type ServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type {
  CheckoutService,
  CreateCheckoutSessionRequestSchema,
  CreateCheckoutSessionResponse,
  GetCheckoutSessionRequestSchema,
  GetCheckoutSessionResponse,
  ListPaymentsRequestSchema,
  ListPaymentsResponse,
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
  /**
   * Each call's deadline (GRPC_TIMEOUT_MS), counted from when the call is made: one still waiting for
   * a group when it passes is answered 503 service_unavailable at once and never sent (load shedding).
   */
  readonly deadlineMs: number;
}

/**
 * Checkout's client as the gateway uses it: creates, reads by id and payment lists, the calls merchants
 * make most, go out in grouped calls (CreateCheckoutSessions, GetCheckoutSessions, ListPaymentPages;
 * docs/batching.md) while
 * `inFlight` grouped calls of their kind are already running; a call made when fewer are running goes
 * out at the end of the event loop's turn, with the calls made in that turn. A grouped call running
 * longer than `stallMs` stops counting, so one slow caller's group cannot hold every other caller back. Every caller gets the answer or the
 * error its single call would have given. `inFlight` 0 leaves every call alone (the single RPCs, as
 * before), as does a call that passes its own options.
 */
export function groupedCheckoutClient(
  checkout: ServiceClient<typeof CheckoutService>,
  settings: GroupingSettings,
  logger: Logger,
): ServiceClient<typeof CheckoutService> {
  if (settings.inFlight === 0) return checkout;
  const options = groupedCallOptions(settings);
  const createGrouped = groupedCalls<MessageInitShape<typeof CreateCheckoutSessionRequestSchema>, CreateCheckoutSessionResponse>({
    ...options,
    send: (calls, requestIds, ctx, timeoutMs) =>
      checkout.createCheckoutSessions(
        { calls: [...calls], requestIds: [...requestIds] },
        { ...ctx, requestId: requestIds[0]! },
        { timeoutMs },
      ),
  });
  const readGrouped = groupedCalls<MessageInitShape<typeof GetCheckoutSessionRequestSchema>, GetCheckoutSessionResponse>({
    ...options,
    send: (calls, requestIds, ctx, timeoutMs) =>
      checkout.getCheckoutSessions(
        { calls: [...calls], requestIds: [...requestIds] },
        { ...ctx, requestId: requestIds[0]! },
        { timeoutMs },
      ),
  });
  const listGrouped = groupedCalls<MessageInitShape<typeof ListPaymentsRequestSchema>, ListPaymentsResponse>({
    ...options,
    // A checkout of the previous release (a rolling upgrade) has no ListPaymentPages: each list alone.
    send: (calls, requestIds, ctx, timeoutMs) =>
      groupedReadOrEachAlone<MessageInitShape<typeof ListPaymentsRequestSchema>, ListPaymentsResponse>(
        () =>
          checkout.listPaymentPages(
            { calls: [...calls], requestIds: [...requestIds] },
            { ...ctx, requestId: requestIds[0]! },
            { timeoutMs },
          ),
        { calls, requestIds, logger, rpc: 'ListPayments' },
        (call, requestId) => checkout.listPayments(call, { ...ctx, requestId }, { timeoutMs }),
      ),
  });
  // A call with options of its own (a deadline) goes alone: a grouped call has GRPC_TIMEOUT_MS from when it was made.
  return {
    ...checkout,
    createCheckoutSession: (request, ctx, callOptions) =>
      callOptions ? checkout.createCheckoutSession(request, ctx, callOptions) : createGrouped(request, ctx),
    getCheckoutSession: (request, ctx, callOptions) =>
      callOptions ? checkout.getCheckoutSession(request, ctx, callOptions) : readGrouped(request, ctx),
    listPayments: (request, ctx, callOptions) =>
      callOptions ? checkout.listPayments(request, ctx, callOptions) : listGrouped(request, ctx),
  };
}

/** The Batcher's limits for one kind of grouped call, from the gateway's grouping settings (also customers-client.ts). */
export function groupedCallOptions({ inFlight, stallMs, deadlineMs }: GroupingSettings) {
  return {
    maxInFlight: inFlight,
    maxGroupSize: MAX_GROUP_SIZE,
    deadlineMs,
    ...(stallMs > 0 ? { stallMs, maxStalled: MAX_STALLED } : {}),
  };
}
