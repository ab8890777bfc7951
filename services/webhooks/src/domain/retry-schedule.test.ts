import { describe, expect, it } from '@jest/globals';
import { parseDuration } from './duration.ts';
import { DEFAULT_RETRY_SCHEDULE, nextAttemptDelay, parseRetrySchedule, RETRY_SCHEDULE_PATTERN, scheduleSpanMs } from './retry-schedule.ts';

const HOUR = 3_600_000;

describe('durations', () => {
  it('read a number and a unit', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('5s')).toBe(5000);
    expect(parseDuration('30m')).toBe(30 * 60_000);
    expect(parseDuration('3d')).toBe(72 * HOUR);
    expect(() => parseDuration('5 minutes')).toThrow(/not a duration/);
  });
});

describe('the retry schedule', () => {
  const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);

  it('by default tries 12 times over about three days, the first at once', () => {
    expect(schedule).toHaveLength(12);
    expect(schedule[0]).toBe(0);
    expect(scheduleSpanMs(schedule) / HOUR).toBeCloseTo(67.58, 1);
    expect(new RegExp(RETRY_SCHEDULE_PATTERN).test(DEFAULT_RETRY_SCHEDULE)).toBe(true);
    expect(new RegExp(RETRY_SCHEDULE_PATTERN).test('0s,,5s')).toBe(false);
  });

  it('gives the wait after each failed attempt, then null', () => {
    expect(nextAttemptDelay(schedule, 1, null)).toBe(5000);
    expect(nextAttemptDelay(schedule, 2, null)).toBe(5 * 60_000);
    expect(nextAttemptDelay(schedule, 11, null)).toBe(10 * HOUR);
    expect(nextAttemptDelay(schedule, 12, null)).toBeNull();
  });

  it('lets Retry-After lengthen a wait but never shorten it', () => {
    expect(nextAttemptDelay(schedule, 1, 60_000)).toBe(60_000);
    expect(nextAttemptDelay(schedule, 2, 1_000)).toBe(5 * 60_000);
  });
});
