/**
 * Sign-in throttling (docs/adr/0028). Failures are counted per email and per client address over a
 * sliding window; past the limit the email (or the address) is refused with the same answer as a
 * wrong password, so a guesser learns nothing, until the window has passed. A failure is a wrong
 * password or a wrong second-factor code, wherever either is asked (sign-in, turning two-factor on or
 * off, changing the payout wallet); only a completed sign-in starts the email's count afresh
 * (docs/adr/0038).
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Failed passwords for one email within the window before it is locked. */
export const FAILURES_PER_EMAIL = 5;
/** Failed passwords from one address within the window (many emails tried from one place). */
export const FAILURES_PER_ADDRESS = 30;

export interface RecentFailures {
  readonly forEmail: number;
  readonly fromAddress: number;
}

export function signInLocked(failures: RecentFailures): boolean {
  return failures.forEmail >= FAILURES_PER_EMAIL || failures.fromAddress >= FAILURES_PER_ADDRESS;
}

export function windowStart(now: Date): Date {
  return new Date(now.getTime() - SIGN_IN_WINDOW_MS);
}

/** The counts once one more failure is recorded (the one being answered). */
export function withOneMoreFailure(failures: RecentFailures): RecentFailures {
  return { forEmail: failures.forEmail + 1, fromAddress: failures.fromAddress + 1 };
}
