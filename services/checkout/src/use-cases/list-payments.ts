import { ApiError } from '@hc/errors';
import { isId } from '@hc/ids';
import type { CheckoutSession, PaymentSource, Scope } from '../domain/checkout-session.ts';
import { expiryTransition } from '../domain/payment-transitions.ts';
import type { CheckoutDependencies } from './dependencies.ts';

export interface PaymentPage {
  payments: CheckoutSession[];
  hasMore: boolean;
}

/**
 * Newest first, stable for payments created in the same millisecond (ties broken by id). The cursor
 * must be one of the caller's payments in this mode. Payments on the page that are past expiry are
 * expired first, as a single read would.
 */
export async function listPayments(
  deps: CheckoutDependencies,
  scope: Scope,
  limit: number,
  startingAfter?: string,
  source?: PaymentSource,
): Promise<PaymentPage> {
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new ApiError('invalid_limit', undefined, 'limit');
  let cursor: CheckoutSession | undefined;
  if (startingAfter !== undefined) {
    cursor = (isId('payment', startingAfter) ? await deps.sessions.find(scope, startingAfter) : null) ?? undefined;
    if (!cursor || (source !== undefined && cursor.source !== source)) throw new ApiError('invalid_cursor', undefined, 'starting_after');
  }
  const rows = await deps.sessions.list(scope, limit + 1, cursor, source);
  const page = rows.slice(0, limit);
  const now = deps.now();
  const payments = await Promise.all(
    page.map(async (payment) => {
      const transition = expiryTransition(payment, now);
      if (!transition) return payment;
      const result = await deps.sessions.change(scope, payment.id, now, (current) => expiryTransition(current, now));
      return result?.payment ?? payment;
    }),
  );
  return { payments, hasMore: rows.length > limit };
}
