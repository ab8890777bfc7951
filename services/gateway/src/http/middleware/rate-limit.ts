import type { RequestHandler } from 'express';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '@hc/errors';
import type { Logger } from '@hc/logging';
import { callerOf } from '../locals.ts';

/**
 * Spends one point of the caller's account budget (the counters live in store/rate-limit-store.ts).
 * Over budget is `rate_limited`; a limiter that fails outright lets the request through and logs.
 */
export function rateLimited(limiter: RateLimiterAbstract, logger: Logger): RequestHandler {
  return async (_req, res, next) => {
    try {
      await limiter.consume(callerOf(res).account.id);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw new ApiError('rate_limited');
      logger.error({ err: error }, 'rate limiter failed; request allowed');
    }
    next();
  };
}
