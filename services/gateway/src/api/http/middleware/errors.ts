import type { ErrorRequestHandler, RequestHandler } from 'express';
import { badValueError } from '@hc/db';
import { ApiError } from '@hc/errors';
import type { Logger } from '@hc/logging';
import { locals } from '../locals.ts';
import { apiErrors } from '../metrics.ts';

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
  // The gateway's own store (keys, idempotency records) refusing a value: 400, like every service's.
  return badValueError(error);
}

/** Every failure leaves as the spec's error body. Anything not an API error is a bug: logged, 500. */
export function errorResponder(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const known = knownError(error);
    const apiError = known ?? new ApiError('internal_error');
    if (!known) {
      logger.error({ err: error, requestId: locals(res).requestId, method: req.method, path: req.path }, 'unhandled error');
    } else if (!(error instanceof ApiError) && apiError.code === 'invalid_request') {
      // A bad value only the database noticed: the caller's fault, but the edge should have refused it.
      logger.warn({ err: error, requestId: locals(res).requestId, method: req.method, path: req.path }, 'database refused a value');
    }
    apiErrors.add(1, { 'error.code': apiError.code });
    if (apiError.code === 'rate_limited') res.setHeader('Retry-After', '60');
    if (apiError.code === 'catching_up') res.setHeader('Retry-After', '1');
    res.status(apiError.httpStatus).json(apiError.toBody());
  };
}
