import { ApiError } from '@hc/errors';
import { isId } from '@hc/ids';
import { parseCurrency, parsePrice, type Currency, type Decimal } from '@hc/money';

/** Account and mode of the caller. Every read and write of a lock is scoped by both. */
export interface Scope {
  readonly accountId: string;
  readonly livemode: boolean;
}

/** The fee, the order's USD value and the deposit address, fixed when the payment starts. */
export interface SettlementLock {
  readonly paymentId: string;
  readonly accountId: string;
  readonly livemode: boolean;
  /** Null in Test mode: the sandbox creates no real deposit address. */
  readonly depositAddress: string | null;
  readonly payoutWallet: string | null;
  /** Basis points of what arrives (150 = 1.5%). */
  readonly feeBps: number;
  /** Price as the merchant set it, two decimals. */
  readonly amount: string;
  readonly currency: Currency;
  /** USD per unit of `currency` used for the lock, plain decimal. */
  readonly usdRate: string;
  /** amount × usdRate, two decimals. */
  readonly usdValue: string;
  /** Which rate source gave usdRate (recorded with the lock). */
  readonly usdRateSource: string;
  readonly lockedAt: Date;
}

/** LockSettlement as the caller sent it. */
export interface LockRequest {
  paymentId: string;
  amount: string;
  currency: string;
  payoutWallet?: string | undefined;
  feeBps: number;
}

/** A LockRequest that passed validation. */
export interface LockTerms {
  readonly paymentId: string;
  readonly amount: Decimal;
  readonly currency: Currency;
  readonly payoutWallet: string | null;
  readonly feeBps: number;
}

export const MAX_FEE_BPS = 10_000;
const MAX_WALLET_LENGTH = 128;

/**
 * Validates a lock request. Checkout is the caller and has already applied the spec's rules; these
 * checks keep a faulty caller from writing a lock the settlement checks could not work with.
 */
export function lockTerms(request: LockRequest, livemode: boolean): LockTerms {
  if (!isId('payment', request.paymentId)) {
    throw new ApiError('invalid_request', 'payment_id must be a pay_ id.', 'payment_id');
  }
  const amount = parsePrice(request.amount);
  if (!amount || amount.lte(0)) {
    throw new ApiError('invalid_request', 'amount must be a positive decimal string with at most two decimals.', 'amount');
  }
  const currency = parseCurrency(request.currency);
  // Exact case only: checkout normalizes, so anything else is a caller bug worth surfacing.
  if (!currency || currency !== request.currency) {
    throw new ApiError('invalid_request', 'currency must be one of USD, EUR, GBP, CAD, AUD.', 'currency');
  }
  if (!Number.isInteger(request.feeBps) || request.feeBps < 0 || request.feeBps > MAX_FEE_BPS) {
    throw new ApiError('invalid_request', `fee_bps must be an integer from 0 to ${MAX_FEE_BPS}.`, 'fee_bps');
  }
  const wallet = request.payoutWallet;
  if (wallet !== undefined && (wallet === '' || /\s/.test(wallet) || wallet.length > MAX_WALLET_LENGTH)) {
    throw new ApiError('invalid_request', `payout_wallet must be 1 to ${MAX_WALLET_LENGTH} characters without spaces.`, 'payout_wallet');
  }
  // A Live payment without a wallet could never pass the payout check; the spec answers such a
  // start with `unavailable` ("Live: no payout wallet"), so settlement refuses it the same way.
  if (livemode && wallet === undefined) {
    throw new ApiError('unavailable', 'A Live payment needs the merchant’s payout wallet.', 'payout_wallet');
  }
  return { paymentId: request.paymentId, amount, currency, payoutWallet: wallet ?? null, feeBps: request.feeBps };
}
