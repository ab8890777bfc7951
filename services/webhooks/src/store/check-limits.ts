import type { WebhooksPrisma } from './prisma.ts';

/** Checks a minute per account: each sends six deliveries' worth of requests to a merchant's server. */
export const CHECKS_PER_MINUTE = 5;
const WINDOW_MS = 60_000;

/**
 * The endpoint checker's per-account budget, counted in PostgreSQL so every webhooks process shares
 * it: a window of one minute starts at an account's first check (by the caller's clock, the service's),
 * one upsert counts and answers the count at once, so concurrent checks each learn their own place.
 */
export class CheckLimits {
  private readonly prisma: WebhooksPrisma;

  constructor(prisma: WebhooksPrisma) {
    this.prisma = prisma;
  }

  /** Counts one check; false when it is over the budget of its window. */
  async consume(accountId: string, now: Date): Promise<boolean> {
    const windowOpen = new Date(now.getTime() - WINDOW_MS);
    const rows = await this.prisma.$queryRaw<{ count: number }[]>`
      INSERT INTO endpoint_check_limits (account_id, window_start, count) VALUES (${accountId}, ${now}, 1)
      ON CONFLICT (account_id) DO UPDATE SET
        count = CASE WHEN endpoint_check_limits.window_start <= ${windowOpen} THEN 1 ELSE endpoint_check_limits.count + 1 END,
        window_start = CASE WHEN endpoint_check_limits.window_start <= ${windowOpen} THEN ${now} ELSE endpoint_check_limits.window_start END
      RETURNING count`;
    return (rows[0]?.count ?? 0) <= CHECKS_PER_MINUTE;
  }
}
