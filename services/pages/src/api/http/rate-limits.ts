import type { Request, RequestHandler, Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '@hc/logging';

/**
 * Per buyer address (rate-limiter-flexible): views and live-status polls have a wide budget, actions
 * (start, provider, Test outcomes) a narrow one, so a scraper cannot hammer checkout nor start sessions
 * in bulk. A start from the page never counts against the merchant's API start limit (that limit is
 * the gateway's, per account). Counted in each process's memory: with N replicas an address gets up to
 * N times the budget, which is enough to stop bulk abuse (docs/adr/0014).
 */
export const CHECKOUT_PAYMENTS_PER_MINUTE = 6;

export interface PageLimits {
  readonly views: RequestHandler;
  readonly actions: RequestHandler;
  /** New payments from one dashboard checkout, per buyer address and checkout (a visit is a payment). */
  readonly checkoutPayments: RequestHandler;
}

export function createPageLimits(
  limits: { viewsPerMinute: number; actionsPerMinute: number },
  logger: Logger,
  onLimited: (req: Request, res: Response, retryAfterSeconds: number) => void,
): PageLimits {
  const limited = (keyPrefix: string, points: number, perCheckout = false): RequestHandler => {
    const limiter = new RateLimiterMemory({ keyPrefix, points, duration: 60 });
    return async (req, res, next) => {
      try {
        const id = perCheckout ? `:${String((req.params as Record<string, string>)['id'])}` : '';
        await limiter.consume(`${req.ip ?? 'unknown'}${id}`);
      } catch (error) {
        if (error instanceof RateLimiterRes) return onLimited(req, res, Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
        logger.error({ err: error }, 'rate limiter failed; request allowed');
      }
      next();
    };
  };
  return {
    views: limited('pages-views', limits.viewsPerMinute),
    actions: limited('pages-actions', limits.actionsPerMinute),
    // A buyer rarely needs more than a few payments from one checkout a minute.
    checkoutPayments: limited('pages-checkout-payments', CHECKOUT_PAYMENTS_PER_MINUTE, true),
  };
}
