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
  await getCheckoutSession(deps, scope, id);
  const result = await deps.sessions.change(scope, id, deps.now(), (payment) => providerReachedTransition(payment, provider));
  if (!result) throw new ApiError('not_found', 'No such payment.');
  return result.payment;
}
