import pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from '@hc/logging';

/**
 * The only code that knows the rate_limits table. Per-account rate limits shared by every gateway
 * process: fixed one-minute windows counted in PostgreSQL (rate-limiter-flexible). One budget per
 * account across all its keys and both modes; a second, smaller budget for starts. Limits are
 * approximate by nature (spec: "about"): a window starts at an account's first request. If the database
 * cannot count, each process falls back to counting alone in memory (the insurance limiter) rather
 * than refusing or waving everything through.
 */
export interface RateLimits {
  readonly requests: RateLimiterAbstract;
  readonly starts: RateLimiterAbstract;
  /** Deletes counters of windows that ended (keeps the table small). */
  purgeExpired(now: Date): Promise<void>;
  close(): Promise<void>;
}

export function createRateLimits(
  databaseUrl: string,
  limits: { requestsPerMinute: number; startsPerMinute: number },
  logger: Logger,
): RateLimits {
  // rate-limiter-flexible drives a pg pool of its own (it does not speak Prisma).
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 5 });
  // An idle connection cut by the server (PostgreSQL restarted, a failover) must not crash the
  // gateway: the pool drops it and opens a new one on the next query (found by the fault suite).
  pool.on('error', (error) => logger.warn({ err: error }, 'rate limits: idle database connection lost'));
  const limiter = (keyPrefix: string, points: number): RateLimiterAbstract =>
    new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: false,
      keyPrefix,
      points,
      duration: 60,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: 60 }),
    });
  return {
    requests: limiter('requests', limits.requestsPerMinute),
    starts: limiter('starts', limits.startsPerMinute),
    async purgeExpired(now) {
      await pool.query('DELETE FROM rate_limits WHERE expire < $1', [now.getTime()]);
    },
    close: () => pool.end(),
  };
}
