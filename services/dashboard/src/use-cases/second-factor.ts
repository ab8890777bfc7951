import { newSecret, secretHash } from '../adapters/tokens.ts';
import type { DashboardSession } from '../domain/dashboard-user.ts';
import { checkCode } from './check-code.ts';
import type { DashboardDependencies } from './dependencies.ts';

/**
 * The second sign-in step: a session whose password was accepted becomes a full session when the
 * user's authenticator code is right and not used before — under a new id and CSRF token, so a
 * half-signed-in cookie planted in the user's browser by someone who knows only the password is
 * worth nothing once the user enters the code (session fixation). Only then is the sign-in recorded
 * as a success (which starts the email's failure count afresh). Wrong codes count as failed sign-ins
 * for the email (the same lock-out as passwords, docs/adr/0038); once the email is locked, even a
 * right code is refused and the half-open session ends.
 */
export async function passSecondFactor(
  deps: DashboardDependencies,
  sessionSecret: string,
  session: DashboardSession,
  code: string,
  clientAddress: string,
): Promise<{ readonly outcome: 'passed'; readonly sessionSecret: string } | { readonly outcome: 'wrong' | 'signed-out' }> {
  const user = session.user;
  const check = await checkCode(deps, user, user.totpSecret, code, clientAddress);
  if (check.outcome === 'accepted') {
    const renewed = newSecret();
    await deps.users.secondFactorPassed(secretHash(sessionSecret), secretHash(renewed), newSecret());
    await deps.users.recordAttempt(user.email, clientAddress, true, deps.now());
    return { outcome: 'passed', sessionSecret: renewed };
  }
  if (check.outcome === 'locked') {
    await deps.users.deleteSession(secretHash(sessionSecret));
    return { outcome: 'signed-out' };
  }
  return { outcome: 'wrong' };
}
