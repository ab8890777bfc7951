import type { ErrorRequestHandler, RequestHandler } from 'express';
import { badValueError, databaseUnavailableError } from '@hc/db';
import { ApiError } from '@hc/errors';
import type { Logger } from '@hc/logging';
import { locals } from '../locals.ts';
import { apiErrors } from '../metrics.ts';
import { answerJson } from '../answer.ts';

export const unknownRoute: RequestHandler = (_req, _res, next) => {
  next(new ApiError('not_found', 'Unrecognized request URL or method.'));
};

/**
 * The API error a failure stands for, if it is not a bug. A path parameter that is not valid
 * percent-encoding (e.g. /v1/checkout_sessions/%E0%A4%A) makes the router throw a URIError marked
 * 400; such an id names none of the caller's objects, so it is not_found like any other unknown id.
 */
function knownError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof URIError && (error as URIError & { status?: unknown }).status === 400)
    return new ApiError('not_found', 'No such object.');
  // The gateway's own store (keys, idempotency records) refusing a value: 400, like every service's;
  // that store briefly away (a restart, a failover): 503, retried by clients (docs/adr/0091).
  return badValueError(error) ?? databaseUnavailableError(error);
}

/** What every failure is answered with: the spec's error body, its status and extra headers. */
export interface FailureAnswer {
  readonly status: number;
  readonly body: ReturnType<ApiError['toBody']>;
  readonly retryAfter: string | undefined;
}

/**
 * Turns a failure into its answer, logging and counting it. Anything not an API error is a bug:
 * logged, 500. Used by the Express error handler below.
 */
export function failureAnswer(logger: Logger, error: unknown, request: { requestId: string; method: string; path: string }): FailureAnswer {
  const known = knownError(error);
  const apiError = known ?? new ApiError('internal_error');
  if (!known) {
    logger.error({ err: error, ...request }, 'unhandled error');
  } else if (!(error instanceof ApiError) && apiError.code === 'invalid_request') {
    // A bad value only the database noticed: the caller's fault, but the edge should have refused it.
    logger.warn({ err: error, ...request }, 'database refused a value');
  } else if (!(error instanceof ApiError) && apiError.code === 'service_unavailable') {
    logger.warn({ err: error, ...request }, 'database unavailable; answered 503');
  }
  apiErrors.add(1, { 'error.code': apiError.code });
  const retryAfter = apiError.code === 'rate_limited' ? '60' : apiError.code === 'catching_up' ? '1' : undefined;
  return { status: apiError.httpStatus, body: apiError.toBody(), retryAfter };
}

/** Every failure leaves as the spec's error body. */
export function errorResponder(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const answer = failureAnswer(logger, error, { requestId: locals(res).requestId, method: req.method, path: req.path });
    if (answer.retryAfter) res.setHeader('Retry-After', answer.retryAfter);
    answerJson(res, answer.status, answer.body);
  };
}
