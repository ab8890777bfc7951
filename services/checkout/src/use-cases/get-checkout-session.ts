import { ApiError } from '@hc/errors';
import { isId } from '@hc/ids';
import { shouldExpire, type CheckoutSession, type Scope } from '../domain/checkout-session.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/**
 * Reads a session of the caller's account and mode. Another account's or mode's session is simply
 * not found. A read past `expires_at` expires an unpaid session before answering.
 */
export async function getCheckoutSession(deps: CheckoutDependencies, scope: Scope, id: string): Promise<CheckoutSession> {
  if (!isId('payment', id)) throw new ApiError('not_found', 'No such checkout session.');
  const session = await deps.sessions.find(scope, id);
  if (!session) throw new ApiError('not_found', 'No such checkout session.');
  const now = deps.now();
  if (!shouldExpire(session, now)) return session;
  await deps.sessions.expireIfDue(scope, id, now);
  const reread = await deps.sessions.find(scope, id);
  if (!reread) throw new ApiError('not_found', 'No such checkout session.');
  return reread;
}
