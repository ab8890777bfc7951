import { acceptedStep } from '../auth/totp.ts';
import { newSecret, secretHash } from '../auth/tokens.ts';
import type { DashboardSession } from '../domain/dashboard-user.ts';
import type { DashboardDependencies } from './dependencies.ts';

/**
 * The second sign-in step: a session whose password was accepted becomes a full session when the
 * user's authenticator code is right and not used before — under a new id and CSRF token, so a
 * half-signed-in cookie planted in the user's browser by someone who knows only the password is
 * worth nothing once the user enters the code (session fixation). Wrong codes count as failed
 * sign-ins (the same lock-out as passwords); three wrong codes end the session.
 */
export async function passSecondFactor(
  deps: DashboardDependencies,
  sessionSecret: string,
  session: DashboardSession,
  code: string,
  clientAddress: string,
): Promise<{ readonly outcome: 'passed'; readonly sessionSecret: string } | { readonly outcome: 'wrong' | 'signed-out' }> {
  const user = session.user;
  const now = deps.now();
  const step = user.totpSecret ? await acceptedStep(user.totpSecret, code, now) : null;
  if (step !== null && (await deps.users.useTotpStep(user.id, step))) {
    const renewed = newSecret();
    await deps.users.secondFactorPassed(secretHash(sessionSecret), secretHash(renewed), newSecret());
    return { outcome: 'passed', sessionSecret: renewed };
  }
  await deps.users.recordAttempt(user.email, clientAddress, false, now);
  const failures = await deps.users.recentFailures(user.email, clientAddress, new Date(now.getTime() - 15 * 60 * 1000));
  if (failures.forEmail >= 3) {
    await deps.users.deleteSession(secretHash(sessionSecret));
    return { outcome: 'signed-out' };
  }
  return { outcome: 'wrong' };
}
