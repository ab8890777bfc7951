import { ApiError } from '@hc/errors';
import type { Payment, PaymentFilters, Scope } from '../domain/payment.ts';
import { expiryTransition } from '../domain/payment-transitions.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/** Rows read per query: enough to keep the walk quick, few enough that memory stays flat. */
export const EXPORT_PAGE = 500;

/**
 * Every payment of the scope the filters match, newest first (ties by id), read a page at a time on
 * the list's index and yielded one by one, so the caller's pace (gRPC flow control, the browser's
 * download) sets how far ahead the reads run: memory holds one page, whatever the total
 * (docs/adr/0057). A payment past expiry is expired first, as listPayments does.
 */
export async function* exportPayments(deps: CheckoutDependencies, scope: Scope, filters: PaymentFilters): AsyncGenerator<Payment> {
  if (filters.createdGte && filters.createdLt && filters.createdGte >= filters.createdLt)
    throw new ApiError('invalid_request', 'The period ends before it starts.', 'created_lt');
  let after: Payment | undefined;
  for (;;) {
    const page = await deps.payments.list(scope, EXPORT_PAGE, after, filters);
    const now = deps.now();
    for (const row of page) {
      let payment = row;
      if (expiryTransition(row, now)) {
        const result = await deps.payments.change(scope, row.id, now, (current) => expiryTransition(current, now));
        payment = result?.payment ?? row;
      }
      if (filters.status === undefined || payment.status === filters.status) yield payment;
    }
    if (page.length < EXPORT_PAGE) return;
    after = page[page.length - 1];
  }
}

/**
 * The settlement statement's payments (docs/adr/0057): every paid payment of the scope whose paid_at
 * is in [from, until), oldest paid first, a page at a time (memory holds one page). By the moment of
 * payment, not of creation: a payment made on one day and paid on the next is the next day's.
 */
export async function* exportPaidPayments(
  deps: CheckoutDependencies,
  scope: Scope,
  period: { from?: Date | undefined; until?: Date | undefined },
  otherFilters: PaymentFilters = {},
): AsyncGenerator<Payment> {
  if (Object.values(otherFilters).some((value) => value !== undefined))
    throw new ApiError('invalid_request', 'A period by paid_at takes no other filter.', 'paid_gte');
  if (period.from && period.until && period.from >= period.until)
    throw new ApiError('invalid_request', 'The period ends before it starts.', 'paid_lt');
  const bounds = { ...(period.from ? { from: period.from } : {}), ...(period.until ? { until: period.until } : {}) };
  let after: Payment | undefined;
  for (;;) {
    const page = await deps.payments.listPaid(scope, EXPORT_PAGE, bounds, after);
    yield* page;
    if (page.length < EXPORT_PAGE) return;
    after = page[page.length - 1];
  }
}
