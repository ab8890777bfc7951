import { ApiError } from '@hc/errors';
import { hashPassword } from '../adapters/passwords.ts';
import { secretHash } from '../adapters/tokens.ts';
import { passwordProblem } from '../domain/credentials.ts';
import type { DashboardUser } from '../domain/dashboard-user.ts';
import type { DashboardDependencies } from './dependencies.ts';

/** The user a one-time set-password link is for, while it still works (unused, within 24 hours). */
export async function userOfPasswordLink(deps: DashboardDependencies, token: string): Promise<DashboardUser | null> {
  if (token.length < 20 || token.length > 100) return null;
  return deps.users.userForPasswordLink(secretHash(token), deps.now());
}

/**
 * Sets a user's password through a one-time link: once, within 24 hours; every session of the user
 * ends. The password rules are checked against the user's email.
 */
export async function setPasswordWithLink(deps: DashboardDependencies, token: string, password: string): Promise<DashboardUser> {
  const gone = () => new ApiError('not_found', 'This link has been used or has expired.');
  const user = await userOfPasswordLink(deps, token);
  if (!user) throw gone();
  const problem = passwordProblem(password, user.email);
  if (problem) throw new ApiError('invalid_password', problem, 'password');
  // The link is spent in the same transaction that sets the password: two tabs cannot both use it.
  const updated = await deps.users.usePasswordLink(secretHash(token), await hashPassword(password), deps.now());
  if (updated === 'address_in_use')
    // Told to whoever holds the link (the invited person), never to the account that invited (docs/adr/0082).
    throw new ApiError(
      'email_taken',
      'This email already signs in to a merchant dashboard, and an email belongs to one account. Sign in as usual, or ask whoever invited you to invite another address.',
      'email',
    );
  if (!updated) throw gone();
  return updated;
}
