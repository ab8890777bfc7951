import { ApiError } from '@hc/errors';
import type { Payment, Scope } from '../domain/payment.ts';
import { verdictTransition, type Verdict } from '../domain/payment-transitions.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/**
 * Applies settlement's verdict to the payment, exactly once per verdict id, whichever of its two paths
 * delivers it: the answer to the gRPC simulate call (Test mode, use-cases/simulate-payment.ts), or the
 * `settlement.verdict.reached` event on JetStream that settlement publishes through its outbox for
 * processor notices and chain checks (consumed by api/consumers/settlement-verdicts.ts). A verdict that no
 * longer fits the payment's status (a decline after money arrived or after expiry, a second outcome)
 * changes nothing: a paid order is never undone. Money on a canceled payment link is held for the
 * merchant's review, never paid (docs/adr/0080).
 */
export async function applyVerdict(deps: CheckoutDependencies, scope: Scope, verdict: Verdict): Promise<Payment> {
  const now = deps.now();
  const result = await deps.payments.change(scope, verdict.paymentId, now, (payment) => verdictTransition(payment, verdict, now), {
    verdictId: verdict.id,
  });
  if (!result) throw new ApiError('not_found', 'No such payment.');
  return result.payment;
}
