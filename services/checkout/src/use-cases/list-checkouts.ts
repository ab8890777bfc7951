import { ApiError } from '@hc/errors';
import { isId } from '@hc/ids';
import type { Checkout } from '../domain/checkout.ts';
import type { Scope } from '../domain/payment.ts';
import type { CheckoutDependencies } from './dependencies.ts';

export interface CheckoutPage {
  checkouts: Checkout[];
  hasMore: boolean;
}

/**
 * The caller's checkouts in its mode, newest first (ties broken by id). The cursor must be one of
 * the caller's checkouts in this mode.
 */
export async function listCheckouts(
  deps: CheckoutDependencies,
  scope: Scope,
  limit: number,
  startingAfter?: string,
): Promise<CheckoutPage> {
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new ApiError('invalid_limit', undefined, 'limit');
  let cursor: Checkout | undefined;
  if (startingAfter !== undefined) {
    cursor = (isId('checkout', startingAfter) ? await deps.checkouts.find(scope, startingAfter) : null) ?? undefined;
    if (!cursor) throw new ApiError('invalid_cursor', undefined, 'starting_after');
  }
  const rows = await deps.checkouts.list(scope, limit + 1, cursor);
  return { checkouts: rows.slice(0, limit), hasMore: rows.length > limit };
}
