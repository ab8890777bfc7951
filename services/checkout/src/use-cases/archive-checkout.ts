import { ApiError } from '@hc/errors';
import type { Checkout } from '../domain/checkout.ts';
import type { Scope } from '../domain/payment.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/** Archives a checkout: its pages say so and take no new payment; payments already made are untouched. */
export async function archiveCheckout(deps: CheckoutDependencies, scope: Scope, id: string): Promise<Checkout> {
  const checkout = await deps.checkouts.archive(scope, id, deps.now());
  if (!checkout) throw new ApiError('not_found');
  return checkout;
}
