import { context, type Context } from '@opentelemetry/api';
import { Batcher, type Pending } from '@hc/batching';
import { ApiError, isErrorCode } from '@hc/errors';
import type { Logger } from 'pino';
import type { CallContext, PublicCallContext } from './call-context.ts';
import { apiErrorOf, logUnexpectedFailure } from './error-mapping.ts';

/**
 * Grouped unary calls (docs/batching.md), a Batcher of calls. grpc-js costs about as much CPU per call as the work behind
 * a read by id, on each side: a call's metadata, HTTP/2 stream, serializers and callbacks. So the
 * calls a busy gateway makes for many requests at once (creates, reads by id) go out in groups: at
 * most `maxInFlight` grouped calls run at once, a call that arrives while they are all busy waits for
 * the next group, and a lone call goes out at the end of the event loop's turn, with the calls made in
 * that turn, in a group of one if it is alone; with `stallMs`, a grouped call that runs long no
 * longer holds the others back. A group holds the calls
 * of one caller only (account and mode travel in the metadata, never in a message body), so a group
 * that holds several callers' calls is sent as one grouped call per caller; calls with no account (a
 * public context: the buyer's pages) are one caller.
 *
 * Each call is answered on its own: the service runs it as the single call would and answers with an
 * outcome per call, in order (its answer or its API error). A failure of a grouped call itself
 * (transport, deadline) fails each of its calls with the error a single call would have had.
 */

/** One call's failure inside a grouped call, as a single call's trailing metadata carries it. */
export interface CallFailure {
  readonly code: string;
  readonly message: string;
  readonly field?: string | undefined;
}

/** One call's outcome, as protobuf-es shapes a `oneof outcome { answer; failure }`. */
export interface CallOutcome<Answer> {
  readonly outcome:
    | { readonly case: 'answer'; readonly value: Answer }
    | { readonly case: 'failure'; readonly value: CallFailure }
    | { readonly case: undefined; readonly value?: undefined };
}

export interface GroupedCallsOptions<Request, Answer, Ctx extends CallContext | PublicCallContext = CallContext> {
  /** Grouped calls running at once (all callers together). */
  readonly maxInFlight: number;
  /** Most calls in one group; more waiting go into the following groups. */
  readonly maxGroupSize: number;
  /** A grouped call running longer than this stops counting toward maxInFlight (Batcher's stallMs). */
  readonly stallMs?: number | undefined;
  /** Stalled grouped calls stepped around at once (Batcher's maxStalled). */
  readonly maxStalled?: number | undefined;
  /**
   * Each call's deadline, counted from when it was made, not from when its group goes out: a call
   * still waiting for a group when it passes fails service_unavailable at once and is never sent
   * (an overloaded service is not given work whose caller has given up), and a group goes out with
   * what is left of its oldest call's time (`send`'s `timeoutMs`). Unset: a group has the client's
   * own deadline from when it is sent.
   */
  readonly deadlineMs?: number | undefined;
  /**
   * Sends one caller's calls as one grouped call; an outcome per call, in order. With deadlineMs,
   * `timeoutMs` is the grouped call's deadline: what is left of its oldest call's.
   */
  readonly send: (
    calls: readonly Request[],
    requestIds: readonly string[],
    ctx: Ctx,
    timeoutMs: number | undefined,
  ) => Promise<{ readonly outcomes: readonly CallOutcome<Answer>[] }>;
}

interface PendingCall<Request, Ctx> {
  readonly request: Request;
  readonly ctx: Ctx;
  /** The trace context the call was made in: its grouped call is a child of the first call's. */
  readonly trace: Context;
}

/** Whose calls may share a group: one account and mode; calls with no account (the buyer's pages) all may. */
const callerOf = (ctx: CallContext | PublicCallContext): string =>
  'accountId' in ctx ? `${ctx.livemode ? 'live' : 'test'}:${ctx.accountId}` : 'public';

/** A unary call of one kind that goes out grouped with the calls made while earlier ones are in flight. */
export function groupedCalls<Request, Answer, Ctx extends CallContext | PublicCallContext = CallContext>(
  options: GroupedCallsOptions<Request, Answer, Ctx>,
): (request: Request, ctx: Ctx) => Promise<Answer> {
  // Every call is its own: two creates (or reads) in one group are never merged.
  const groups = new Batcher<PendingCall<Request, Ctx>, Answer>({
    maxInFlight: options.maxInFlight,
    maxGroupSize: options.maxGroupSize,
    stallMs: options.stallMs,
    maxStalled: options.maxStalled,
    ...(options.deadlineMs === undefined ? {} : { maxWaitMs: options.deadlineMs, overdue: () => new ApiError('service_unavailable') }),
    run: async (calls) => {
      const byCaller = new Map<string, Pending<PendingCall<Request, Ctx>, Answer>[]>();
      for (const call of calls) {
        const caller = callerOf(call.item.ctx);
        const list = byCaller.get(caller);
        if (list) list.push(call);
        else byCaller.set(caller, [call]);
      }
      await Promise.all([...byCaller.values()].map((list) => sendGroup(options, list)));
    },
  });
  return (request, ctx) => groups.add({ request, ctx, trace: context.active() });
}

async function sendGroup<Request, Answer, Ctx extends CallContext | PublicCallContext>(
  options: GroupedCallsOptions<Request, Answer, Ctx>,
  calls: readonly Pending<PendingCall<Request, Ctx>, Answer>[],
): Promise<void> {
  const first = calls[0]!.item;
  // Calls wait in order, so the first is the oldest: its deadline is the group's (at least 1 ms).
  const timeoutMs = options.deadlineMs === undefined ? undefined : Math.max(1, calls[0]!.addedAt + options.deadlineMs - Date.now());
  let outcomes: readonly CallOutcome<Answer>[];
  try {
    // Sent in the first call's trace context, not in that of whichever earlier group's completion
    // started this one.
    ({ outcomes } = await context.with(first.trace, () =>
      options.send(
        calls.map((call) => call.item.request),
        calls.map((call) => call.item.ctx.requestId),
        first.ctx,
        timeoutMs,
      ),
    ));
  } catch (error) {
    // The grouped call failed as a whole (the client maps it: service_unavailable, internal_error):
    // each call of it fails as its single call would have.
    const failure = apiErrorOf(error);
    for (const call of calls) call.reject(failure);
    return;
  }
  calls.forEach((call, index) => settle(call, outcomes[index]));
}

function settle<Answer>(call: Pending<unknown, Answer>, outcome: CallOutcome<Answer> | undefined): void {
  if (outcome?.outcome.case === 'answer') call.resolve(outcome.outcome.value);
  else if (outcome?.outcome.case === 'failure') call.reject(apiErrorFromFailure(outcome.outcome.value));
  // A missing outcome (fewer than the calls sent) is the service's fault, never an answer.
  else call.reject(new ApiError('internal_error'));
}

/** Client side: the ApiError a call's failure stands for (an unknown code is an internal error). */
export function apiErrorFromFailure(failure: CallFailure): ApiError {
  return isErrorCode(failure.code) ? new ApiError(failure.code, failure.message, failure.field) : new ApiError('internal_error');
}

/**
 * Server side: runs each call of a grouped call as its single call would run (all at once, so the
 * store's own grouping answers them together) and returns an outcome per call, in order. A failure
 * that is not an API error is logged as the single call's adapter logs it (logUnexpectedFailure), with
 * the call's request id.
 */
export async function answerEach<Request, Answer>(
  calls: readonly Request[],
  requestIds: readonly string[],
  logger: Logger,
  rpc: string,
  run: (call: Request, requestId: string) => Promise<Answer>,
): Promise<CallOutcome<Answer>[]> {
  return Promise.all(
    calls.map(async (call, index): Promise<CallOutcome<Answer>> => {
      const requestId = requestIds[index] ?? '';
      try {
        return { outcome: { case: 'answer', value: await run(call, requestId) } };
      } catch (error) {
        logUnexpectedFailure(logger, error, { rpc, requestId }, 'grouped call failed with an unexpected error');
        const apiError = apiErrorOf(error);
        return { outcome: { case: 'failure', value: { code: apiError.code, message: apiError.message, field: apiError.field } } };
      }
    }),
  );
}
