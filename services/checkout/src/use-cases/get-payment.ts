import { ApiError } from '@hc/errors';
import { isId } from '@hc/ids';
import { shouldExpire, type Payment, type Scope } from '../domain/payment.ts';
import { expiryTransition } from '../domain/payment-transitions.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/**
 * Reads a payment of the caller's account and mode. Another account's or mode's payment
 * is simply not found. A read past `expires_at` expires an unpaid payment (with its event) first.
 */
export async function getPayment(deps: CheckoutDependencies, scope: Scope, id: string): Promise<Payment> {
  const payment = isId('payment', id) ? await deps.payments.find(scope, id) : null;
  if (!payment) throw new ApiError('not_found', 'No such checkout session.');
  return expireIfDue(deps, scope, payment);
}

/**
 * A payment just read, as a read must answer it: past `expires_at` an unpaid payment is expired (with
 * its event, under the row lock) first; otherwise it is returned as read, without another statement.
 */
export async function expireIfDue(deps: CheckoutDependencies, scope: Scope, payment: Payment): Promise<Payment> {
  const now = deps.now();
  if (!shouldExpire(payment, now)) return payment;
  const result = await deps.payments.change(scope, payment.id, now, (current) => expiryTransition(current, now));
  if (!result) throw new ApiError('not_found', 'No such checkout session.');
  return result.payment;
}
