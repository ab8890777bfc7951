import pg from 'pg';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '@hc/logging';
import type { AccountLimiter } from '../domain/account-limiter.ts';
import { CoalescedCounters } from './coalesced-counters.ts';

/**
 * The only code that knows the rate_limits table. Per-account rate limits shared by every gateway
 * process: one-minute windows counted in PostgreSQL, each starting at the account's first request
 * (by the database's clock), one budget per
 * account across all its keys and both modes, a second, smaller one for starts. The points of
 * concurrent requests are added in groups, one statement per group (CoalescedCounters, docs/adr/0031),
 * and each request learns its exact place in the shared count. If the database cannot count, each
 * process falls back to counting alone in memory (rate-limiter-flexible) rather than refusing or
 * waving everything through.
 */
export interface RateLimits {
  readonly requests: AccountLimiter;
  readonly starts: AccountLimiter;
  /** GET /v1/listen long polls, counted apart from `requests` (issue 44). */
  readonly listens: AccountLimiter;
  /** Deletes counters of windows that ended (keeps the table small). */
  purgeExpired(now: Date): Promise<void>;
  close(): Promise<void>;
}

const WINDOW_MS = 60_000;

export function createRateLimits(
  databaseUrl: string,
  limits: { requestsPerMinute: number; startsPerMinute: number; listensPerMinute: number },
  logger: Logger,
): RateLimits {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  // An idle connection cut by the server (PostgreSQL restarted, a failover) must not crash the
  // gateway: the pool drops it and opens a new one on the next query (found by the fault suite).
  pool.on('error', (error) => logger.warn({ err: error }, 'rate limits: idle database connection lost'));
  const counters = new CoalescedCounters(pool, 'rate_limits', WINDOW_MS);
  const limiter = (prefix: string, points: number): AccountLimiter => {
    const insurance = new RateLimiterMemory({ keyPrefix: prefix, points, duration: WINDOW_MS / 1000 });
    return {
      async consume(accountId) {
        try {
          return (await counters.add(`${prefix}:${accountId}`)) <= points;
        } catch (error) {
          logger.warn({ err: error }, 'rate limits: the database cannot count; counting in this process alone');
          try {
            await insurance.consume(accountId);
            return true;
          } catch (refusal) {
            if (refusal instanceof RateLimiterRes) return false;
            throw refusal;
          }
        }
      },
    };
  };
  return {
    requests: limiter('requests', limits.requestsPerMinute),
    starts: limiter('starts', limits.startsPerMinute),
    listens: limiter('listens', limits.listensPerMinute),
    async purgeExpired(now) {
      await pool.query('DELETE FROM rate_limits WHERE expire < $1', [now.getTime()]);
    },
    close: () => pool.end(),
  };
}
