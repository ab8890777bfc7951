import { Decimal } from '@hc/money';
import { SessionStatus, type CheckoutSession } from '@hc/proto/checkout/v1';

/** The API's word for a status (SESSION_STATUS_PAID → paid). */
export function statusName(status: SessionStatus): string {
  return status === SessionStatus.UNSPECIFIED ? 'unknown' : (SessionStatus[status] ?? 'unknown').toLowerCase();
}

/**
 * The payments CSV (docs/adr/0057): one row per payment with the API's fields and the settlement
 * columns, in this order. Times are ISO 8601 UTC (a spreadsheet reads them; the API's Unix seconds
 * do not), amounts the services' decimal strings as given, never re-parsed.
 */
export const PAYMENT_COLUMNS = [
  'id',
  'status',
  'amount',
  'currency',
  'description',
  'reference',
  'customer_email',
  'created',
  'paid_at',
  'provider',
  'country',
  'livemode',
  'hold_reason',
  'coin',
  'value_coin',
  'merchant_received',
  'fee_coin',
  'txid_in',
  'txid_out',
  'payout_wallet',
] as const;
export type PaymentCsvRow = Record<(typeof PAYMENT_COLUMNS)[number], string>;

const iso = (seconds: bigint | undefined): string => (seconds === undefined ? '' : new Date(Number(seconds) * 1000).toISOString());

/** What the platform kept of what arrived: arrived less forwarded, in the coin; "" before settlement. */
export function feeInCoin(valueCoin: string | undefined, merchantReceived: string | undefined): string {
  if (!valueCoin || !merchantReceived) return '';
  return new Decimal(valueCoin).minus(merchantReceived).toFixed();
}

/** The fields of a payment the row reads (checkout's CheckoutSession message has them all). */
export type ExportedPayment = Pick<
  CheckoutSession,
  | 'id'
  | 'status'
  | 'amount'
  | 'currency'
  | 'description'
  | 'reference'
  | 'customerEmail'
  | 'created'
  | 'paidAt'
  | 'provider'
  | 'country'
  | 'livemode'
  | 'holdReason'
  | 'canceledAt'
> & { readonly settlement?: Omit<NonNullable<CheckoutSession['settlement']>, '$typeName' | '$unknown'> | undefined };

export function paymentCsvRow(payment: ExportedPayment): PaymentCsvRow {
  const s = payment.settlement;
  return {
    id: payment.id,
    status: payment.canceledAt !== undefined ? 'canceled' : statusName(payment.status),
    amount: payment.amount,
    currency: payment.currency,
    description: payment.description,
    reference: payment.reference ?? '',
    customer_email: payment.customerEmail ?? '',
    created: iso(payment.created),
    paid_at: iso(payment.paidAt),
    provider: payment.provider ?? '',
    country: payment.country ?? '',
    livemode: payment.livemode ? 'true' : 'false',
    hold_reason: payment.holdReason ?? '',
    coin: s?.coin ?? '',
    value_coin: s?.valueCoin ?? '',
    merchant_received: s?.merchantReceived ?? '',
    fee_coin: feeInCoin(s?.valueCoin, s?.merchantReceived),
    txid_in: s?.txidIn ?? '',
    txid_out: s?.txidOut ?? '',
    payout_wallet: s?.payoutWallet ?? '',
  };
}
