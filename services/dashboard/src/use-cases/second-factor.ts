import { secretHash } from '../auth/tokens.ts';
import type { DashboardSession } from '../domain/dashboard-user.ts';
import { checkCode } from './check-code.ts';
import type { DashboardDependencies } from './dependencies.ts';

/**
 * The second sign-in step: a session whose password was accepted becomes a full session when the
 * user's authenticator code is right and not used before; only then is the sign-in recorded as a
 * success (which starts the email's failure count afresh). Wrong codes count as failed sign-ins for
 * the email (the same lock-out as passwords, docs/adr/0038); once the email is locked, even a right
 * code is refused and the half-open session ends.
 */
export async function passSecondFactor(
  deps: DashboardDependencies,
  sessionSecret: string,
  session: DashboardSession,
  code: string,
  clientAddress: string,
): Promise<'passed' | 'wrong' | 'signed-out'> {
  const user = session.user;
  const check = await checkCode(deps, user, user.totpSecret, code, clientAddress);
  if (check.outcome === 'accepted') {
    await deps.users.secondFactorPassed(secretHash(sessionSecret));
    await deps.users.recordAttempt(user.email, clientAddress, true, deps.now());
    return 'passed';
  }
  if (check.outcome === 'locked') {
    await deps.users.deleteSession(secretHash(sessionSecret));
    return 'signed-out';
  }
  return 'wrong';
}
