import { ApiError } from '@hc/errors';
import { shouldExpire, type CheckoutSession } from './checkout-session.ts';
import { normalizeEmail } from './new-session.ts';

/**
 * Why a session cannot be started now, if it cannot: canceled or expired (410), or finished (409).
 * Starting an already started, still unpaid session is allowed and changes nothing but the email.
 */
export function startRefusal(session: CheckoutSession, now: Date): ApiError | undefined {
  if (session.canceledAt !== null) return new ApiError('canceled');
  if (session.status === 'expired' || shouldExpire(session, now)) return new ApiError('expired');
  switch (session.status) {
    case 'paid':
      return new ApiError('already_paid');
    case 'held':
      return new ApiError('held');
    case 'failed':
      return new ApiError('failed');
    case 'open':
    case 'pending':
      return undefined;
  }
}

/** The buyer's country: two letters in any case, returned uppercased; absent is null. */
export function startCountry(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  if (!/^[A-Za-z]{2}$/.test(raw)) throw new ApiError('invalid_country', undefined, 'country');
  return raw.toUpperCase();
}

/** The email to start with: a new one replaces the saved one; without either, start is refused. */
export function startEmail(session: Pick<CheckoutSession, 'customerEmail'>, raw: string | undefined): string {
  if (raw !== undefined) return normalizeEmail(raw, 'customer_email');
  if (session.customerEmail === null)
    throw new ApiError('invalid_email', 'The session has no email; send customer_email.', 'customer_email');
  return session.customerEmail;
}

/** Live payments need a payout wallet to forward to. */
export function canTakePayments(livemode: boolean, payoutWallet: string | null): boolean {
  return !livemode || payoutWallet !== null;
}
