import { ApiError } from '@hc/errors';
import type { Logger } from 'pino';
import { answerEach, type CallOutcome } from './grouped-calls.ts';

/**
 * A grouped read, or each of its calls alone when the service cannot answer the grouped call. A
 * service of the previous release (a rolling upgrade, docs/replicas.md) has no newer grouped method:
 * grpc-js's UNIMPLEMENTED reads as internal_error, and so does a grouped call the service failed as
 * a whole. Reads are safe to ask again, so each call is then sent alone and answered with the outcome
 * its single call gives (answerEach maps each error as the service does for a grouped call). Only for
 * reads: a grouped write that failed as a whole may have been written.
 */
export async function groupedReadOrEachAlone<Request, Answer>(
  grouped: () => Promise<{ readonly outcomes: readonly CallOutcome<Answer>[] }>,
  each: { calls: readonly Request[]; requestIds: readonly string[]; logger: Logger; rpc: string },
  alone: (call: Request, requestId: string) => Promise<Answer>,
): Promise<{ readonly outcomes: readonly CallOutcome<Answer>[] }> {
  try {
    return await grouped();
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'internal_error') throw error;
    return { outcomes: await answerEach(each.calls, each.requestIds, each.logger, each.rpc, alone) };
  }
}
