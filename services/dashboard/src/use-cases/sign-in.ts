import { decoyHash, passwordMatches } from '../adapters/passwords.ts';
import { newSecret, secretHash } from '../adapters/tokens.ts';
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
 * before, so a planted cookie is worthless). Every failure is recorded, and a completed sign-in (the
 * password of a user without two-factor); past the limits the answer is the same refusal even for the
 * right password. A user with two-factor gets a half-open session that reaches only the code form.
 */
export async function signIn(
  deps: DashboardDependencies,
  input: { email: string; password: string; clientAddress: string },
): Promise<SignInResult> {
  const now = deps.now();
  const email = normalEmail(input.email) ?? input.email.trim().toLowerCase().slice(0, 254);
  // Recorded as a failure before the password is checked (UserStore.beginAttempt): guesses sent all
  // at once count each other, so no more than the limit of them are ever checked.
  const { attemptId, failures } = await deps.users.beginAttempt(email, input.clientAddress, now, windowStart(now));
  const user = await deps.users.userByEmail(email);
  // Verify even when locked or unknown, so every refusal costs the same time.
  const matches = await passwordMatches(user?.passwordHash ?? (await decoyHash()), input.password.slice(0, 1000));
  const succeeded = matches && user !== null && user.passwordHash !== null && !signInLocked(failures);
  if (!succeeded || !user) return { ok: false };
  const secondFactorDue = user.totpSecret !== null;
  // With two-factor on, the password alone is not a sign-in: the email's failures keep counting
  // until the code is right too (second-factor.ts records the success then); the password records
  // nothing.
  if (secondFactorDue) await deps.users.forgetAttempt(attemptId);
  else await deps.users.attemptSucceeded(attemptId);
  const sessionSecret = newSecret();
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
