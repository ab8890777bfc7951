import { ApiError } from '@hc/errors';
import { acceptedStep, newTotpSecret, totpUri } from '../auth/totp.ts';
import type { DashboardUser } from '../domain/dashboard-user.ts';
import type { DashboardDependencies } from './dependencies.ts';

/** Starts two-factor set-up: a new secret, kept pending until a code from the app confirms it. */
export async function beginTwoFactor(deps: DashboardDependencies, user: DashboardUser): Promise<{ secret: string; uri: string }> {
  if (user.totpSecret) throw new ApiError('invalid_request', 'Two-factor sign-in is already on.');
  const secret = user.totpPendingSecret ?? newTotpSecret();
  if (!user.totpPendingSecret) await deps.users.setPendingTotp(user.id, secret);
  return { secret, uri: totpUri(secret, user.email) };
}

/** Turns two-factor on once the user proves the app holds the pending secret. */
export async function confirmTwoFactor(deps: DashboardDependencies, user: DashboardUser, code: string): Promise<void> {
  if (!user.totpPendingSecret) throw new ApiError('invalid_request', 'Start the set-up again.');
  const step = await acceptedStep(user.totpPendingSecret, code, deps.now());
  if (step === null) throw new ApiError('invalid_request', 'That code is not right; check the app and try again.', 'code');
  await deps.users.enableTotp(user.id, user.totpPendingSecret, step);
}

/** Turns two-factor off; a current code is required, so a borrowed session alone cannot do it. */
export async function disableTwoFactor(deps: DashboardDependencies, user: DashboardUser, code: string): Promise<void> {
  if (!user.totpSecret) return;
  const step = await acceptedStep(user.totpSecret, code, deps.now());
  if (step === null || !(await deps.users.useTotpStep(user.id, step)))
    throw new ApiError('invalid_request', 'That code is not right; check the app and try again.', 'code');
  await deps.users.disableTotp(user.id);
}
