import { signInLocked, windowStart, withOneMoreFailure } from '../domain/sign-in-limits.ts';
import type { DashboardDependencies } from './dependencies.ts';

/** A password or code checked under the sign-in limits. */
export type CheckOutcome = 'accepted' | 'wrong' | 'locked';

/**
 * Runs one check of something only the user knows (a password, an authenticator code) under the
 * sign-in limits (docs/adr/0038): an email or address already past its failures is refused without
 * running the check (so a right code is not spent on a refused answer); a wrong answer is recorded as a
 * failed attempt, and says 'locked' when it was the one that reached the limit. A right answer records
 * nothing: only a completed sign-in starts the email's count afresh, which its caller records. The
 * attempt is recorded as a failure before the check runs (UserStore.beginAttempt), so checks sent at
 * once count each other and no more than the limit of them run.
 */
export async function countedCheck(
  deps: DashboardDependencies,
  who: { email: string; clientAddress: string },
  check: () => Promise<boolean>,
): Promise<CheckOutcome> {
  const now = deps.now();
  const { attemptId, failures } = await deps.users.beginAttempt(who.email, who.clientAddress, now, windowStart(now));
  if (signInLocked(failures)) return 'locked';
  if (await check()) {
    await deps.users.forgetAttempt(attemptId);
    return 'accepted';
  }
  return signInLocked(withOneMoreFailure(failures)) ? 'locked' : 'wrong';
}
