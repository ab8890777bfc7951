import { describe, expect, it } from '@jest/globals';
import { isFailingTooLong, judgeAttempt, type AttemptResult } from './attempt-outcome.ts';

const response = (statusCode: number): AttemptResult => ({ kind: 'response', statusCode, retryAfter: undefined, snippet: '' });

describe('attempt outcomes', () => {
  it('count any 2xx as success, 410 as gone, everything else (3xx too) as failure', () => {
    expect([200, 201, 204, 299].map((s) => judgeAttempt(response(s)))).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(judgeAttempt(response(410))).toBe('gone');
    expect([301, 302, 307, 400, 404, 429, 500, 503].map((s) => judgeAttempt(response(s))).every((v) => v === 'failed')).toBe(true);
    expect(judgeAttempt({ kind: 'error', error: 'timeout' })).toBe('failed');
  });

  it('call an endpoint failing too long only past the threshold', () => {
    const now = new Date('2026-11-25T00:00:00Z');
    const day = 86_400_000;
    expect(isFailingTooLong(null, now, 5 * day)).toBe(false);
    expect(isFailingTooLong(new Date(now.getTime() - 4 * day), now, 5 * day)).toBe(false);
    expect(isFailingTooLong(new Date(now.getTime() - 5 * day), now, 5 * day)).toBe(true);
  });
});
