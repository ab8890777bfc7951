import type { RequestHandler } from 'express';
import { ApiError } from '@hc/errors';
import type { Logger } from '@hc/logging';
import type { AccountLimiter } from '../../../domain/account-limiter.ts';
import { callerOf } from '../locals.ts';

/**
 * Spends one point of the caller's account budget (the counters live in store/rate-limit-store.ts).
 * Over budget is `rate_limited`; a limiter that fails outright lets the request through and logs.
 */
export function rateLimited(limiter: AccountLimiter, logger: Logger): RequestHandler {
  return async (_req, res, next) => {
    let within = true;
    try {
      within = await limiter.consume(callerOf(res).account.id);
    } catch (error) {
      logger.error({ err: error }, 'rate limiter failed; request allowed');
    }
    if (!within) throw new ApiError('rate_limited');
    next();
  };
}
