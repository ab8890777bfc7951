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

/** What a start needs to know of the account, as the accounts context has it at that moment (docs/adr/0037). */
export interface AccountStanding {
  readonly payoutWallet: string | null;
  /** True when accounts has the account suspended; absent when the gateway already refused that (its API). */
  readonly suspended?: boolean | undefined;
}

/** A suspended account takes no payment; a Live payment needs a payout wallet to forward to. */
export function canTakePayments(livemode: boolean, account: AccountStanding): boolean {
  return account.suspended !== true && (!livemode || account.payoutWallet !== null);
}

/** `unavailable` (the spec's "account cannot take payments now") when the account cannot take this payment. */
export function paymentRefusal(livemode: boolean, account: AccountStanding): ApiError | undefined {
  if (account.suspended === true) return new ApiError('unavailable', 'The account is suspended: it cannot take payments now.');
  if (!canTakePayments(livemode, account)) return new ApiError('unavailable', 'The account has no payout wallet for Live payments.');
  return undefined;
}
