import { context, type Context } from '@opentelemetry/api';
import { GroupedReads } from '@hc/db';
import { ApiError, isErrorCode } from '@hc/errors';
import type { Logger } from 'pino';
import type { CallContext } from './call-context.ts';
import { apiErrorOf, logUnexpectedFailure } from './error-mapping.ts';

/**
 * Grouped unary calls (docs/adr/0064). grpc-js costs about as much CPU per call as the work behind
 * a read by id, on each side: a call's metadata, HTTP/2 stream, serializers and callbacks. So the
 * calls a busy gateway makes for many requests at once (creates, reads by id) go out in groups: at
 * most `maxInFlight` grouped calls run at once, a call that arrives while they are all busy waits for
 * the next group, and a lone call goes out at the end of the event loop's turn, with the calls made in
 * that turn (docs/adr/0072), in a group of one if it is alone; with `stallMs`, a grouped
 * call that runs long no longer holds the others back (docs/adr/0071). A group holds the calls
 * of one caller only (account and mode travel in the metadata, never in a message body), so a group
 * that holds several callers' calls is sent as one grouped call per caller.
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

export interface GroupedCallsOptions<Request, Answer> {
  /** Grouped calls running at once (all callers together). */
  readonly maxInFlight: number;
  /** Most calls in one group; more waiting go into the following groups. */
  readonly maxGroupSize: number;
  /** A grouped call running longer than this stops counting toward maxInFlight (GroupedReads' stallMs). */
  readonly stallMs?: number | undefined;
  /** Stalled grouped calls stepped around at once (GroupedReads' maxStalled). */
  readonly maxStalled?: number | undefined;
  /** Sends one caller's calls as one grouped call; an outcome per call, in order. */
  readonly send: (
    calls: readonly Request[],
    requestIds: readonly string[],
    ctx: CallContext,
  ) => Promise<{ readonly outcomes: readonly CallOutcome<Answer>[] }>;
}

interface PendingCall<Request> {
  readonly seq: number;
  readonly request: Request;
  readonly ctx: CallContext;
  /** The trace context the call was made in: its grouped call is a child of the first call's. */
  readonly trace: Context;
}

type Settled<Answer> = { readonly answer: Answer } | { readonly error: ApiError };

const callerOf = (ctx: CallContext): string => `${ctx.livemode ? 'live' : 'test'}:${ctx.accountId}`;

/** A unary call of one kind that goes out grouped with the calls made while earlier ones are in flight. */
export function groupedCalls<Request, Answer>(
  options: GroupedCallsOptions<Request, Answer>,
): (request: Request, ctx: CallContext) => Promise<Answer> {
  let seq = 0;
  const groups = new GroupedReads<PendingCall<Request>, Settled<Answer>>({
    maxInFlight: options.maxInFlight,
    maxGroupSize: options.maxGroupSize,
    stallMs: options.stallMs,
    maxStalled: options.maxStalled,
    // Every call is its own: two creates (or reads) in one group are never merged.
    keyOf: (call) => String(call.seq),
    readGroup: async (calls) => {
      const byCaller = new Map<string, PendingCall<Request>[]>();
      for (const call of calls) {
        const caller = callerOf(call.ctx);
        const list = byCaller.get(caller);
        if (list) list.push(call);
        else byCaller.set(caller, [call]);
      }
      const settled = new Map<string, Settled<Answer>>();
      await Promise.all([...byCaller.values()].map((list) => sendGroup(options, list, settled)));
      return settled;
    },
  });
  return async (request, ctx) => {
    const settled = await groups.read({ seq: seq++, request, ctx, trace: context.active() });
    if (!settled) throw new ApiError('internal_error');
    if ('error' in settled) throw settled.error;
    return settled.answer;
  };
}

async function sendGroup<Request, Answer>(
  options: GroupedCallsOptions<Request, Answer>,
  calls: readonly PendingCall<Request>[],
  settled: Map<string, Settled<Answer>>,
): Promise<void> {
  const first = calls[0]!;
  try {
    // Sent in the first call's trace context, not in that of whichever earlier group's completion
    // started this one.
    const { outcomes } = await context.with(first.trace, () =>
      options.send(
        calls.map((call) => call.request),
        calls.map((call) => call.ctx.requestId),
        first.ctx,
      ),
    );
    calls.forEach((call, index) => settled.set(String(call.seq), settledOf(outcomes[index])));
  } catch (error) {
    // The grouped call failed as a whole (the client maps it: service_unavailable, internal_error):
    // each call of it fails as its single call would have.
    const failure = { error: apiErrorOf(error) };
    for (const call of calls) settled.set(String(call.seq), failure);
  }
}

function settledOf<Answer>(outcome: CallOutcome<Answer> | undefined): Settled<Answer> {
  if (outcome?.outcome.case === 'answer') return { answer: outcome.outcome.value };
  if (outcome?.outcome.case === 'failure') return { error: apiErrorFromFailure(outcome.outcome.value) };
  // A missing outcome (fewer than the calls sent) is the service's fault, never an answer.
  return { error: new ApiError('internal_error') };
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
