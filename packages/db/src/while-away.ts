import { databaseUnavailableError } from './pg-errors.ts';

/**
 * Runs `work` again while it fails because the database is briefly away (databaseUnavailableError: a
 * restart, a failover to the standby, docs/adr/0091), waiting a doubling delay between tries, until it
 * succeeds or `deadline` (ms since the epoch) would pass; then the last error is thrown. Any other
 * error is thrown at once. For the write that records something already done outside the database
 * (a mail the SMTP server accepted): given up on, it would be done again when its lease runs out.
 */
export async function retryWhileDatabaseAway<T>(
  work: () => Promise<T>,
  options: { deadline: number; firstDelayMs?: number; maxDelayMs?: number; onRetry?: (error: unknown) => void },
): Promise<T> {
  for (let delay = options.firstDelayMs ?? 100; ; delay = Math.min(delay * 2, options.maxDelayMs ?? 2_000)) {
    try {
      return await work();
    } catch (error) {
      if (!databaseUnavailableError(error) || Date.now() + delay >= options.deadline) throw error;
      options.onRetry?.(error);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
