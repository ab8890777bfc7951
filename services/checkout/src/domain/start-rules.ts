import { ApiError } from '@hc/errors';
import { shouldExpire, type Payment } from './payment.ts';
import { normalizeEmail } from './new-payment.ts';

/**
 * Why a payment cannot be started now, if it cannot: canceled or expired (410), or finished (409).
 * Starting an already started, still unpaid payment is allowed and changes nothing but the email.
 */
export function startRefusal(payment: Payment, now: Date): ApiError | undefined {
  if (payment.canceledAt !== null) return new ApiError('canceled');
  if (payment.status === 'expired' || shouldExpire(payment, now)) return new ApiError('expired');
  switch (payment.status) {
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
export function startEmail(payment: Pick<Payment, 'customerEmail'>, raw: string | undefined): string {
  if (raw !== undefined) return normalizeEmail(raw, 'customer_email');
  if (payment.customerEmail === null)
    throw new ApiError('invalid_email', 'The session has no email; send customer_email.', 'customer_email');
  return payment.customerEmail;
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
