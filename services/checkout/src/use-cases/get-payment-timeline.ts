import { ApiError } from '@hc/errors';
import type { Caller } from './dependencies.ts';
import { checkoutTimeline, mergeTimelines, type PaymentTimelineEntry } from '../domain/payment-timeline.ts';
import type { CheckoutDependencies } from './dependencies.ts';
import { getPayment } from './get-payment.ts';

/**
 * Operators and the dashboard: a payment's timeline, checkout's lines merged with settlement's money
 * timeline. Scoped like every read (another account's or mode's payment is not_found); a payment
 * never started has no settlement lines.
 */
export async function getPaymentTimeline(deps: CheckoutDependencies, caller: Caller, id: string): Promise<PaymentTimelineEntry[]> {
  const payment = await getPayment(deps, caller, id);
  let money: PaymentTimelineEntry[] = [];
  if (payment.startedAt) {
    try {
      const { entries } = await deps.settlement.listTimeline({ paymentId: payment.id }, caller);
      money = entries.map((e) => ({
        source: 'settlement',
        kind: e.kind,
        at: new Date(Number(e.at)),
        detail: JSON.parse(e.detailJson) as Record<string, unknown>,
      }));
    } catch (error) {
      // Started but never locked (a start that failed at settlement): nothing moved yet.
      if (!(error instanceof ApiError && error.code === 'not_found')) throw error;
    }
  }
  return mergeTimelines(checkoutTimeline(payment), money);
}
