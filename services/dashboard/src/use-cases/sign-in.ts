import { decoyHash, passwordMatches } from '../auth/passwords.ts';
import { newSecret, secretHash } from '../auth/tokens.ts';
import { normalEmail } from '../domain/credentials.ts';
import { SESSION_IDLE_MS } from '../domain/dashboard-user.ts';
import { signInLocked, windowStart } from '../domain/sign-in-limits.ts';
import type { DashboardDependencies } from './dependencies.ts';

export type SignInResult =
  | { readonly ok: true; readonly sessionSecret: string; readonly secondFactorDue: boolean }
  // One answer for unknown email, wrong password and locked email: a guesser learns nothing.
  | { readonly ok: false };

/**
 * Checks an email and password and opens a new session (a new random id: never one the browser had
 * before, so a planted cookie is worthless). Every attempt is recorded; past the limits the answer is
 * the same refusal even for the right password.
 */
export async function signIn(
  deps: DashboardDependencies,
  input: { email: string; password: string; clientAddress: string },
): Promise<SignInResult> {
  const now = deps.now();
  const email = normalEmail(input.email) ?? input.email.trim().toLowerCase().slice(0, 254);
  const failures = await deps.users.recentFailures(email, input.clientAddress, windowStart(now));
  const user = await deps.users.userByEmail(email);
  // Verify even when locked or unknown, so every refusal costs the same time.
  const matches = await passwordMatches(user?.passwordHash ?? (await decoyHash()), input.password.slice(0, 1000));
  const succeeded = matches && user !== null && user.passwordHash !== null && !signInLocked(failures);
  await deps.users.recordAttempt(email, input.clientAddress, succeeded, now);
  if (!succeeded || !user) return { ok: false };
  const sessionSecret = newSecret();
  const secondFactorDue = user.totpSecret !== null;
  await deps.users.insertSession({
    idHash: secretHash(sessionSecret),
    userId: user.id,
    csrfToken: newSecret(),
    secondFactorDue,
    now,
    expiresAt: new Date(now.getTime() + SESSION_IDLE_MS),
  });
  return { ok: true, sessionSecret, secondFactorDue };
}
