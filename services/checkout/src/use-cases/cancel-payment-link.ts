import { ApiError } from '@hc/errors';
import type { Payment, Scope } from '../domain/payment.ts';
import { cancelTransition } from '../domain/payment-link.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/**
 * The merchant cancels a payment link (dashboard or operator CLI): `expired` with `canceled_at` and
 * `payment.canceled`, under the payment's row lock so a buyer reaching a provider at the same moment
 * either wins (the cancel is refused) or loses (the start answers `410 canceled`).
 */
export async function cancelPaymentLink(deps: CheckoutDependencies, scope: Scope, id: string): Promise<Payment> {
  const now = deps.now();
  const result = await deps.payments.change(scope, id, now, (payment) => cancelTransition(payment, now));
  if (!result) throw new ApiError('not_found');
  return result.payment;
}
