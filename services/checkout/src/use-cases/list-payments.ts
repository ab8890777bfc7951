import { ApiError } from '@hc/errors';
import { isId } from '@hc/ids';
import { isPaymentSource, isPaymentStatus, type Payment, type PaymentFilters, type Scope } from '../domain/payment.ts';
import { expiryTransition } from '../domain/payment-transitions.ts';
import type { CheckoutDependencies } from './dependencies.ts';

export interface PaymentPage {
  payments: Payment[];
  hasMore: boolean;
}

/** The dashboard's or the API's filters as sent (any may be absent or empty): checked, the email lower-cased. */
export function paymentFilters(raw: {
  status?: string | undefined;
  reference?: string | undefined;
  customerEmail?: string | undefined;
  createdGte?: bigint | undefined;
  createdLte?: bigint | undefined;
  source?: string | undefined;
}): PaymentFilters {
  const status = raw.status || undefined;
  if (status !== undefined && !isPaymentStatus(status)) throw new ApiError('invalid_request', `Unknown status: ${status}.`, 'status');
  const source = raw.source || undefined;
  if (source !== undefined && !isPaymentSource(source)) throw new ApiError('invalid_request', `Unknown source: ${source}.`, 'source');
  return {
    status,
    source,
    reference: raw.reference || undefined,
    customerEmail: raw.customerEmail?.trim().toLowerCase() || undefined,
    createdGte: raw.createdGte === undefined ? undefined : secondsToDate(raw.createdGte, 'created[gte]'),
    // Inclusive of the whole second: created_at < lte + 1 s.
    createdLt: raw.createdLte === undefined ? undefined : secondsToDate(raw.createdLte + 1n, 'created[lte]'),
  };
}

/** Unix seconds within what a Date holds (the gateway already refuses anything but digits). */
function secondsToDate(seconds: bigint, field: string): Date {
  if (seconds < 0n || seconds > 8_640_000_000_000n) throw new ApiError('invalid_request', `${field} is out of range.`, field);
  return new Date(Number(seconds) * 1000);
}

/**
 * Newest first, stable for payments created in the same millisecond (ties broken by id). The cursor
 * must be one of the caller's payments in this mode (of the filter's source, with one). Payments on the page that are past expiry are
 * expired first, as a single read would; with a status filter, one that thereby left the status is
 * left off the page.
 */
export async function listPayments(
  deps: CheckoutDependencies,
  scope: Scope,
  limit: number,
  startingAfter?: string,
  filters: PaymentFilters = {},
): Promise<PaymentPage> {
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new ApiError('invalid_limit', undefined, 'limit');
  // With a cursor, one statement reads it and the page after it (docs/adr/0097).
  const rows =
    startingAfter === undefined
      ? await deps.payments.list(scope, limit + 1, undefined, filters)
      : isId('payment', startingAfter)
        ? await deps.payments.listAfterId(scope, limit + 1, startingAfter, filters)
        : null;
  if (!rows) throw new ApiError('invalid_cursor', undefined, 'starting_after');
  const page = rows.slice(0, limit);
  const now = deps.now();
  const payments = await Promise.all(
    page.map(async (payment) => {
      const transition = expiryTransition(payment, now);
      if (!transition) return payment;
      const result = await deps.payments.change(scope, payment.id, now, (current) => expiryTransition(current, now));
      return result?.payment ?? payment;
    }),
  );
  const kept = filters.status === undefined ? payments : payments.filter((payment) => payment.status === filters.status);
  return { payments: kept, hasMore: rows.length > limit };
}
