import { describe, expect, it } from '@jest/globals';
import { parseRetryAfter } from './retry-after.ts';

const now = new Date('2026-11-25T12:00:00Z');
const cap = 3_600_000;

describe('Retry-After', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', now, cap)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now, cap)).toBe(0);
  });

  it('reads an HTTP-date relative to now, a past one as no wait', () => {
    expect(parseRetryAfter('Wed, 25 Nov 2026 12:00:30 GMT', now, cap)).toBe(30_000);
    expect(parseRetryAfter('Wed, 25 Nov 2026 11:00:00 GMT', now, cap)).toBe(0);
  });

  it('caps long waits and ignores what it cannot read', () => {
    expect(parseRetryAfter('999999', now, cap)).toBe(cap);
    expect(parseRetryAfter(undefined, now, cap)).toBeNull();
    expect(parseRetryAfter('soon', now, cap)).toBeNull();
    expect(parseRetryAfter('-5', now, cap)).toBeNull();
    expect(parseRetryAfter('1.5', now, cap)).toBeNull();
  });
});
