import { ApiError } from '@hc/errors';
import { newTotpSecret, totpUri } from '../adapters/totp.ts';
import type { DashboardUser } from '../domain/dashboard-user.ts';
import { checkCode, type CodeCheck } from './check-code.ts';
import type { DashboardDependencies } from './dependencies.ts';

const WRONG_CODE = 'That code is not right; check the app and try again.';
export const LOCKED = 'Too many wrong passwords or codes for your email: wait 15 minutes, then try again. Sign-in is paused for as long.';

/** A refused code as the form shows it: wrong (400) or, past the sign-in limits, locked (429). */
function refusal(check: Exclude<CodeCheck, { outcome: 'accepted' }>): ApiError {
  return check.outcome === 'locked' ? new ApiError('rate_limited', LOCKED, 'code') : new ApiError('invalid_request', WRONG_CODE, 'code');
}

/** Starts two-factor set-up: a new secret, kept pending until a code from the app confirms it. */
export async function beginTwoFactor(deps: DashboardDependencies, user: DashboardUser): Promise<{ secret: string; uri: string }> {
  if (user.totpSecret) throw new ApiError('invalid_request', 'Two-factor sign-in is already on.');
  const secret = user.totpPendingSecret ?? newTotpSecret();
  if (!user.totpPendingSecret) await deps.users.setPendingTotp(user.id, secret);
  return { secret, uri: totpUri(secret, user.email) };
}

/**
 * Turns two-factor on once the user proves the app holds the pending secret. A wrong code counts
 * towards the email's sign-in lock, like every code the dashboard checks (docs/adr/0038).
 */
export async function confirmTwoFactor(
  deps: DashboardDependencies,
  user: DashboardUser,
  code: string,
  clientAddress: string,
): Promise<void> {
  if (!user.totpPendingSecret) throw new ApiError('invalid_request', 'Start the set-up again.');
  const check = await checkCode(deps, user, user.totpPendingSecret, code, clientAddress);
  if (check.outcome !== 'accepted') throw refusal(check);
  await deps.users.enableTotp(user.id, user.totpPendingSecret, check.step);
}

/**
 * Turns two-factor off; a current code is required, so a borrowed session alone cannot do it, and
 * wrong codes count towards the email's sign-in lock, so it cannot guess one either.
 */
export async function disableTwoFactor(
  deps: DashboardDependencies,
  user: DashboardUser,
  code: string,
  clientAddress: string,
): Promise<void> {
  if (!user.totpSecret) return;
  const check = await checkCode(deps, user, user.totpSecret, code, clientAddress);
  if (check.outcome !== 'accepted') throw refusal(check);
  await deps.users.disableTotp(user.id);
}
