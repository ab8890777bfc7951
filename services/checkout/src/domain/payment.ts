import type { Currency } from '@hc/money';

/** Statuses of a payment (the API names it a checkout session; docs/adr/0104). */
export const PAYMENT_STATUSES = ['open', 'pending', 'paid', 'held', 'failed', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Payments made over the API can be paid for 24 hours after creation. */
export const PAYMENT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Account and mode of the caller. Every read and write of a payment is scoped by both. */
export interface Scope {
  readonly accountId: string;
  readonly livemode: boolean;
}

/**
 * The payment, checkout's aggregate. Outside it keeps the API's name: the `checkout_session` resource,
 * the proto's `CheckoutSession` messages and RPCs, the table `checkout_sessions` (docs/adr/0104).
 */
export interface Payment {
  readonly id: string;
  readonly accountId: string;
  readonly livemode: boolean;
  readonly status: PaymentStatus;
  /** Decimal string, two decimals. */
  readonly amount: string;
  readonly currency: Currency;
  readonly description: string;
  readonly reference: string | null;
  readonly customerEmail: string | null;
  /** Counts changes of the email at start (0 at creation); orders the `session.started` events. */
  readonly customerRevision: number;
  readonly metadata: Readonly<Record<string, string>> | null;
  readonly successUrl: string | null;
  readonly cancelUrl: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly startedAt: Date | null;
  /** Set by the start and the settlement. */
  readonly country: string | null;
  readonly provider: string | null;
  readonly paidAt: Date | null;
  readonly holdReason: string | null;
  readonly holdAcceptable: boolean;
  readonly canceledAt: Date | null;
  /** Set when the merchant accepted a held payment as paid. */
  readonly acceptedAt: Date | null;
  readonly source: PaymentSource;
  /** Payment links: who the link is for, and a note to the payer (null for other payments). */
  readonly customerName: string | null;
  readonly memo: string | null;
  /** The buyer's language the merchant chose at create (@hc/i18n's spelling); null: the browser decides. */
  readonly locale: string | null;
  /**
   * The hosted page's language when the buyer started (their pick, their browser or `locale`): the
   * receipt's language. Null when started over the API. Internal: not part of the API object.
   */
  readonly pageLocale: string | null;
  /** Checkout payments: the `chk_` checkout visited, and the pricing-table plan chosen ("Pro — 29.00 EUR"). */
  readonly checkoutId: string | null;
  readonly planLabel: string | null;
  /**
   * The merchant's name as the gateway passed it at create (null for older payments), shown to buyers.
   * Nothing else of the account is kept: a start reads the account's wallet and fee from the accounts context
   * (docs/adr/0037).
   */
  readonly merchantName: string | null;
  /** Locked at start. */
  readonly feeBps: number | null;
  readonly depositAddress: string | null;
  readonly payoutWallet: string | null;
  readonly usdValue: string | null;
  readonly settlement: SettlementFields;
}

export type PaymentSource = 'api' | 'checkout' | 'payment_link';

/** What a payments listing may be narrowed to (the dashboard's filters and GET /v1/payments'). */
export interface PaymentFilters {
  readonly source?: PaymentSource | undefined;
  readonly status?: PaymentStatus | undefined;
  /** Exact. */
  readonly reference?: string | undefined;
  /** Lower-cased, exact. */
  readonly customerEmail?: string | undefined;
  /** Created at or after / before (the exports' period). */
  readonly createdGte?: Date | undefined;
  readonly createdLt?: Date | undefined;
}

export const PAYMENT_SOURCES: readonly PaymentSource[] = ['api', 'checkout', 'payment_link'];

export function isPaymentSource(value: string): value is PaymentSource {
  return (PAYMENT_SOURCES as readonly string[]).includes(value);
}

export function isPaymentStatus(value: string): value is PaymentStatus {
  return (PAYMENT_STATUSES as readonly string[]).includes(value);
}

/** What moved, as the settlement context reported it. Decimal strings in `coin`. */
export interface SettlementFields {
  readonly coin: string | null;
  readonly valueCoin: string | null;
  readonly merchantReceived: string | null;
  readonly txidIn: string | null;
  readonly txidOut: string | null;
}

export const NO_SETTLEMENT: SettlementFields = { coin: null, valueCoin: null, merchantReceived: null, txidIn: null, txidOut: null };

/** The fields a new, unstarted payment has beyond what the merchant sent. */
export const UNSTARTED: Pick<
  Payment,
  | 'startedAt'
  | 'customerRevision'
  | 'country'
  | 'provider'
  | 'paidAt'
  | 'holdReason'
  | 'holdAcceptable'
  | 'canceledAt'
  | 'acceptedAt'
  | 'source'
  | 'customerName'
  | 'memo'
  | 'checkoutId'
  | 'planLabel'
  | 'pageLocale'
  | 'feeBps'
  | 'depositAddress'
  | 'payoutWallet'
  | 'usdValue'
  | 'settlement'
> = {
  startedAt: null,
  customerRevision: 0,
  country: null,
  provider: null,
  paidAt: null,
  holdReason: null,
  holdAcceptable: false,
  canceledAt: null,
  acceptedAt: null,
  source: 'api',
  customerName: null,
  memo: null,
  checkoutId: null,
  planLabel: null,
  pageLocale: null,
  feeBps: null,
  depositAddress: null,
  payoutWallet: null,
  usdValue: null,
  settlement: NO_SETTLEMENT,
};

/** A payment that has ended for good (a late delivery can still move an expired one). */
export function isFinished(status: PaymentStatus): boolean {
  return status === 'paid' || status === 'held' || status === 'failed';
}

export function expiryFor(createdAt: Date): Date {
  return new Date(createdAt.getTime() + PAYMENT_LIFETIME_MS);
}

/** Unpaid payments can still take a payment, or expire. */
export function isUnpaid(status: PaymentStatus): boolean {
  return status === 'open' || status === 'pending';
}

/** An unpaid payment read at or past its expiry becomes `expired`. */
export function shouldExpire(payment: Pick<Payment, 'status' | 'expiresAt'>, now: Date): boolean {
  return isUnpaid(payment.status) && now.getTime() >= payment.expiresAt.getTime();
}

/** The hosted checkout page of a payment. */
export function hostedPageUrl(publicBaseUrl: string, id: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/pay/${id}`;
}
