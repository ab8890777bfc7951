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
export interface PageLimits {
  readonly views: RequestHandler;
  readonly actions: RequestHandler;
}

export function createPageLimits(
  limits: { viewsPerMinute: number; actionsPerMinute: number },
  logger: Logger,
  onLimited: (req: Request, res: Response, retryAfterSeconds: number) => void,
): PageLimits {
  const limited = (keyPrefix: string, points: number): RequestHandler => {
    const limiter = new RateLimiterMemory({ keyPrefix, points, duration: 60 });
    return async (req, res, next) => {
      try {
        await limiter.consume(req.ip ?? 'unknown');
      } catch (error) {
        if (error instanceof RateLimiterRes) return onLimited(req, res, Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
        logger.error({ err: error }, 'rate limiter failed; request allowed');
      }
      next();
    };
  };
  return { views: limited('pages-views', limits.viewsPerMinute), actions: limited('pages-actions', limits.actionsPerMinute) };
}
