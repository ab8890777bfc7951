import type { Scope } from '../domain/payment.ts';
import { buildOverview, overviewPeriod, type Overview } from '../domain/overview.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/** The Overview lists the first few held payments; the page says how many more wait. */
export const NEEDS_YOU_LIMIT = 20;

/** The dashboard's Overview for the last `days` UTC days (docs/adr/0058). */
export async function getOverview(deps: CheckoutDependencies, scope: Scope, days: number): Promise<Overview> {
  const now = deps.now();
  const period = overviewPeriod(days, now);
  return buildOverview(period, await deps.payments.overview(scope, period, now, NEEDS_YOU_LIMIT));
}
