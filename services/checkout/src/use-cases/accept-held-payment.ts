import { ApiError } from '@hc/errors';
import type { Payment, Scope } from '../domain/payment.ts';
import { acceptHeldTransition } from '../domain/payment-transitions.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/** Dashboard: the merchant accepts a held payment as paid (`payment.paid`; merchant_received stays null). */
export async function acceptHeldPayment(deps: CheckoutDependencies, scope: Scope, id: string): Promise<Payment> {
  const now = deps.now();
  const result = await deps.payments.change(scope, id, now, (payment) => acceptHeldTransition(payment, now), { eventCause: 'accepted' });
  if (!result) throw new ApiError('not_found', 'No such payment.');
  return result.payment;
}
