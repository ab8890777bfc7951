import { ApiError } from '@hc/errors';
import type { Checkout } from '../domain/checkout.ts';
import type { Scope } from '../domain/checkout-session.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/** The caller's checkouts in its mode, newest first. */
export async function listCheckouts(deps: CheckoutDependencies, scope: Scope, limit: number): Promise<Checkout[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new ApiError('invalid_limit', undefined, 'limit');
  return deps.checkouts.list(scope, limit);
}
