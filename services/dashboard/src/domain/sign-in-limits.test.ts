// Risk covered: the lock-out letting a guesser keep going (an email past its failures, or many emails
// from one address) or locking a user who is still under the limits.
import { describe, expect, it } from '@jest/globals';
import {
  FAILURES_PER_ADDRESS,
  FAILURES_PER_EMAIL,
  SIGN_IN_WINDOW_MS,
  signInLocked,
  windowStart,
  withOneMoreFailure,
} from './sign-in-limits.ts';

describe('signInLocked', () => {
  it('locks an email at its failure limit and stays open below it', () => {
    expect(signInLocked({ forEmail: FAILURES_PER_EMAIL - 1, fromAddress: 0 })).toBe(false);
    expect(signInLocked({ forEmail: FAILURES_PER_EMAIL, fromAddress: 0 })).toBe(true);
  });

  it('locks an address that failed on many emails, whatever the email', () => {
    expect(signInLocked({ forEmail: 0, fromAddress: FAILURES_PER_ADDRESS - 1 })).toBe(false);
    expect(signInLocked({ forEmail: 0, fromAddress: FAILURES_PER_ADDRESS })).toBe(true);
  });

  it('keeps the documented limits: 5 per email, 30 per address, 15 minutes (docs/adr/0028)', () => {
    expect([FAILURES_PER_EMAIL, FAILURES_PER_ADDRESS, SIGN_IN_WINDOW_MS]).toEqual([5, 30, 15 * 60 * 1000]);
  });
});

describe('windowStart', () => {
  it('is one window before now', () => {
    const now = new Date('2026-11-23T12:00:00.000Z');
    expect(windowStart(now).toISOString()).toBe('2026-11-23T11:45:00.000Z');
  });
});

describe('withOneMoreFailure', () => {
  it('counts the failure being answered for the email and the address, so the last allowed one locks', () => {
    const before = { forEmail: FAILURES_PER_EMAIL - 1, fromAddress: 3 };
    expect(withOneMoreFailure(before)).toEqual({ forEmail: FAILURES_PER_EMAIL, fromAddress: 4 });
    expect(signInLocked(withOneMoreFailure(before))).toBe(true);
  });
});
