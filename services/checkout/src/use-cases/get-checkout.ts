import { ApiError } from '@hc/errors';
import type { Checkout } from '../domain/checkout.ts';
import type { Scope } from '../domain/payment.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/** One checkout of the caller's account and mode; another's is not_found. */
export async function getCheckout(deps: CheckoutDependencies, scope: Scope, id: string): Promise<Checkout> {
  const checkout = await deps.checkouts.find(scope, id);
  if (!checkout) throw new ApiError('not_found');
  return checkout;
}
