import { DURATION_PATTERN, parseDuration } from './duration.ts';

/**
 * When a delivery's attempts happen: entry n is the wait before attempt n+1, counted from the end of
 * the attempt before it (entry 0 from the event: normally "0s", at once). After the last entry's
 * attempt fails the delivery has failed for good.
 *
 * The default spreads 12 attempts over about 2.8 days: at once, 5 s, 5 min, 30 min, 2 h, 5 h, then
 * every 10 h six times (the last attempt 67 h 35 min after the first).
 */
export const DEFAULT_RETRY_SCHEDULE = '0s,5s,5m,30m,2h,5h,10h,10h,10h,10h,10h,10h';

/** The comma-separated list the config accepts (WEBHOOKS_RETRY_SCHEDULE). */
export const RETRY_SCHEDULE_PATTERN = `^${DURATION_PATTERN.slice(1, -1)}(,${DURATION_PATTERN.slice(1, -1)})*$`;

export function parseRetrySchedule(text: string): number[] {
  const delays = text.split(',').map(parseDuration);
  if (delays.length === 0) throw new Error('the retry schedule needs at least one entry');
  return delays;
}

/**
 * The wait before the next attempt after `attemptsMade` failed attempts, or null when the schedule
 * is used up. An endpoint's Retry-After (already capped by the caller) can lengthen the wait, never
 * shorten it: the schedule is also what protects a struggling receiver.
 */
export function nextAttemptDelay(schedule: readonly number[], attemptsMade: number, retryAfterMs: number | null): number | null {
  if (attemptsMade >= schedule.length) return null;
  return Math.max(schedule[attemptsMade]!, retryAfterMs ?? 0);
}

/** Total span from the first to the last attempt, for documentation and sanity checks. */
export function scheduleSpanMs(schedule: readonly number[]): number {
  return schedule.slice(1).reduce((sum, delay) => sum + delay, 0);
}
