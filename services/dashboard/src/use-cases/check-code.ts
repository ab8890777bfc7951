import { acceptedStep } from '../adapters/totp.ts';
import type { DashboardUser } from '../domain/dashboard-user.ts';
import { countedCheck, type CheckOutcome } from './counted-check.ts';
import type { DashboardDependencies } from './dependencies.ts';

export type CodeCheck = { readonly outcome: 'accepted'; readonly step: number } | { readonly outcome: Exclude<CheckOutcome, 'accepted'> };

/**
 * Checks an authenticator code against `secret` (the user's, or the pending one being confirmed)
 * under the sign-in limits: a wrong code is a failed attempt for the user's email; a right one is
 * used once (its time step, or an earlier one, is refused afterwards, even within its 30 seconds).
 */
export async function checkCode(
  deps: DashboardDependencies,
  user: DashboardUser,
  secret: string | null,
  code: string,
  clientAddress: string,
): Promise<CodeCheck> {
  const used: { step?: number } = {};
  const outcome = await countedCheck(deps, { email: user.email, clientAddress }, async () => {
    const step = secret ? await acceptedStep(secret, code, deps.now()) : null;
    if (step === null || !(await deps.users.useTotpStep(user.id, step))) return false;
    used.step = step;
    return true;
  });
  return outcome === 'accepted' && used.step !== undefined
    ? { outcome, step: used.step }
    : { outcome: outcome === 'locked' ? 'locked' : 'wrong' };
}
