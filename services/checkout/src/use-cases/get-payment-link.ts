import { ApiError } from '@hc/errors';
import type { Payment, Scope } from '../domain/payment.ts';
import type { CheckoutDependencies } from './dependencies.ts';
import { getPayment } from './get-payment.ts';

/**
 * One payment link of the caller's account and mode (the dashboard's link page). A payment made
 * another way is not a link: not_found, as is another account's or mode's payment.
 */
export async function getPaymentLink(deps: CheckoutDependencies, scope: Scope, id: string): Promise<Payment> {
  const payment = await getPayment(deps, scope, id);
  if (payment.source !== 'payment_link') throw new ApiError('not_found', 'No such payment link.');
  return payment;
}
