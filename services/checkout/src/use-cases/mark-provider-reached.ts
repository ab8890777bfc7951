import { ApiError } from '@hc/errors';
import type { Payment, Scope } from '../domain/payment.ts';
import { findProvider } from '../domain/providers.ts';
import { providerReachedTransition } from '../domain/payment-transitions.ts';
import type { CheckoutDependencies } from './dependencies.ts';
import { getPayment } from './get-payment.ts';

/** The hosted page reports that the buyer went to a provider: open → pending (no event). */
export async function markProviderReached(deps: CheckoutDependencies, scope: Scope, id: string, provider: string): Promise<Payment> {
  if (!findProvider(deps.providers, provider)) throw new ApiError('invalid_request', 'Unknown provider.', 'provider');
  return markProviderReachedOn(deps, scope, await getPayment(deps, scope, id), provider);
}

/**
 * markProviderReached on a payment already read (found, expired if due): no other read; the change
 * re-judges the row under its lock.
 */
export async function markProviderReachedOn(
  deps: CheckoutDependencies,
  scope: Scope,
  payment: Payment,
  provider: string,
): Promise<Payment> {
  if (!findProvider(deps.providers, provider)) throw new ApiError('invalid_request', 'Unknown provider.', 'provider');
  const now = deps.now();
  const result = await deps.payments.change(scope, payment.id, now, (payment) => providerReachedTransition(payment, provider, now));
  if (!result) throw new ApiError('not_found', 'No such payment.');
  return result.payment;
}
