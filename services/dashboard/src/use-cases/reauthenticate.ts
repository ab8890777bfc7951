import { passwordMatches } from '../adapters/passwords.ts';
import { acceptedStep } from '../adapters/totp.ts';
import type { DashboardUser } from '../domain/dashboard-user.ts';
import { countedCheck, type CheckOutcome } from './counted-check.ts';
import type { DashboardDependencies } from './dependencies.ts';

/**
 * Asks a signed-in user to prove it is them again before a change that moves money (docs/adr/0038):
 * the current password and, with two-factor on, a current code (used once). A wrong answer counts
 * towards the email's sign-in lock, exactly like a wrong sign-in, so a borrowed session cannot guess;
 * once the email is locked nothing is checked and the answer is 'locked'. The code is checked only
 * after a right password, so a mistyped password does not spend it.
 */
export async function reauthenticate(
  deps: DashboardDependencies,
  user: DashboardUser,
  proof: { password: string; code: string },
  clientAddress: string,
): Promise<CheckOutcome> {
  return countedCheck(deps, { email: user.email, clientAddress }, async () => {
    if (user.passwordHash === null || !(await passwordMatches(user.passwordHash, proof.password.slice(0, 1000)))) return false;
    if (user.totpSecret === null) return true;
    const step = await acceptedStep(user.totpSecret, proof.code, deps.now());
    return step !== null && (await deps.users.useTotpStep(user.id, step));
  });
}
