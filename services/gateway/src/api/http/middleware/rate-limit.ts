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
    await spendBudget(limiter, logger, callerOf(res).account.id);
    next();
  };
}

/** The rate limit's rule, shared by the middleware and the reads by id (routes/reads-by-id.ts). */
export async function spendBudget(limiter: AccountLimiter, logger: Logger, accountId: string): Promise<void> {
  let within = true;
  try {
    within = await limiter.consume(accountId);
  } catch (error) {
    logger.error({ err: error }, 'rate limiter failed; request allowed');
  }
  if (!within) throw new ApiError('rate_limited');
}
