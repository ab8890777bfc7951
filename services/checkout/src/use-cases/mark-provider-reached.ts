import { ApiError } from '@hc/errors';
import type { CheckoutSession, Scope } from '../domain/checkout-session.ts';
import { findProvider } from '../domain/providers.ts';
import { providerReachedTransition } from '../domain/payment-transitions.ts';
import type { CheckoutDependencies } from './dependencies.ts';
import { getCheckoutSession } from './get-checkout-session.ts';

/** The hosted page reports that the buyer went to a provider: open → pending (no event). */
export async function markProviderReached(
  deps: CheckoutDependencies,
  scope: Scope,
  id: string,
  provider: string,
): Promise<CheckoutSession> {
  if (!findProvider(deps.providers, provider)) throw new ApiError('invalid_request', 'Unknown provider.', 'provider');
  return markProviderReachedOn(deps, scope, await getCheckoutSession(deps, scope, id), provider);
}

/**
 * markProviderReached on a session already read (found, expired if due): no other read; the change
 * re-judges the row under its lock.
 */
export async function markProviderReachedOn(
  deps: CheckoutDependencies,
  scope: Scope,
  session: CheckoutSession,
  provider: string,
): Promise<CheckoutSession> {
  if (!findProvider(deps.providers, provider)) throw new ApiError('invalid_request', 'Unknown provider.', 'provider');
  const now = deps.now();
  const result = await deps.sessions.change(scope, session.id, now, (payment) => providerReachedTransition(payment, provider, now));
  if (!result) throw new ApiError('not_found', 'No such payment.');
  return result.payment;
}
