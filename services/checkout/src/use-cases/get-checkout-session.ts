import { ApiError } from '@hc/errors';
import { isId } from '@hc/ids';
import { shouldExpire, type CheckoutSession, type Scope } from '../domain/checkout-session.ts';
import { expiryTransition } from '../domain/payment-transitions.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/**
 * Reads a session (= payment) of the caller's account and mode. Another account's or mode's session
 * is simply not found. A read past `expires_at` expires an unpaid payment (with its event) first.
 */
export async function getCheckoutSession(deps: CheckoutDependencies, scope: Scope, id: string): Promise<CheckoutSession> {
  const session = isId('payment', id) ? await deps.sessions.find(scope, id) : null;
  if (!session) throw new ApiError('not_found', 'No such checkout session.');
  return expireIfDue(deps, scope, session);
}

/**
 * A session just read, as a read must answer it: past `expires_at` an unpaid payment is expired (with
 * its event, under the row lock) first; otherwise it is returned as read, without another statement.
 */
export async function expireIfDue(deps: CheckoutDependencies, scope: Scope, session: CheckoutSession): Promise<CheckoutSession> {
  const now = deps.now();
  if (!shouldExpire(session, now)) return session;
  const result = await deps.sessions.change(scope, session.id, now, (current) => expiryTransition(current, now));
  if (!result) throw new ApiError('not_found', 'No such checkout session.');
  return result.payment;
}
