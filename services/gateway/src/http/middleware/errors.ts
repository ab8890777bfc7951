import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError } from '@hc/errors';
import type { Logger } from '@hc/logging';
import { locals } from '../locals.ts';

export const unknownRoute: RequestHandler = (_req, _res, next) => {
  next(new ApiError('not_found', 'Unrecognized request URL or method.'));
};

/** Every failure leaves as the spec's error body. Anything not an ApiError is a bug: logged, 500. */
export function errorResponder(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const apiError = error instanceof ApiError ? error : new ApiError('internal_error');
    if (!(error instanceof ApiError)) {
      logger.error({ err: error, requestId: locals(res).requestId, method: req.method, path: req.path }, 'unhandled error');
    }
    if (apiError.code === 'rate_limited') res.setHeader('Retry-After', '60');
    res.status(apiError.httpStatus).json(apiError.toBody());
  };
}
