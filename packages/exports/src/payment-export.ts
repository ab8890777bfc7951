import { Decimal } from '@hc/money';
import type { Payment } from '@hc/proto/checkout/v1/payment';

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

/** ISO 8601 of the Payment message's Unix milliseconds; "" for none. */
export const isoOfMillis = (ms: bigint | undefined): string => (ms === undefined ? '' : new Date(Number(ms)).toISOString());

/**
 * The times of a CSV row or a statement line as the API object shows them: whole seconds (its
 * `created` and `paid_at` are Unix seconds), so a row matches the API's object to the second.
 */
export const isoOfWholeSecond = (ms: bigint | undefined): string => (ms === undefined ? '' : isoOfMillis(ms - (ms % 1000n)));

/** What the platform kept of what arrived: arrived less forwarded, in the coin; "" before settlement. */
export function feeInCoin(valueCoin: string | undefined, merchantReceived: string | undefined): string {
  if (!valueCoin || !merchantReceived) return '';
  return new Decimal(valueCoin).minus(merchantReceived).toFixed();
}

/** The fields of a payment the rows read (of the one Payment message, ADR 0102). */
export type ExportedPayment = Pick<
  Payment,
  | 'id'
  | 'status'
  | 'amount'
  | 'currency'
  | 'description'
  | 'reference'
  | 'customerEmail'
  | 'createdAt'
  | 'paidAt'
  | 'provider'
  | 'country'
  | 'mode'
  | 'holdReason'
  | 'canceledAt'
  | 'coin'
  | 'valueCoin'
  | 'merchantReceived'
  | 'txidIn'
  | 'txidOut'
  | 'payoutWallet'
>;

/** One answer of checkout's ExportPayments stream: the payment (`exported`) and its USD value. */
export interface ExportAnswer {
  readonly exported?: Payment | undefined;
  readonly usdValue?: string | undefined;
}

/** The payment of an export answer; none for an empty answer. */
export function exportedPayment(answer: ExportAnswer): Payment | undefined {
  return answer.exported;
}

/** The CSV's rows from checkout's export stream, as it comes. */
export async function* paymentCsvRows(answers: AsyncIterable<ExportAnswer>): AsyncGenerator<PaymentCsvRow> {
  for await (const answer of answers) {
    const payment = exportedPayment(answer);
    if (payment) yield paymentCsvRow(payment);
  }
}

/** The one mapper of the CSV row, from the Payment message. */
export function paymentCsvRow(payment: ExportedPayment): PaymentCsvRow {
  return {
    id: payment.id,
    status: payment.canceledAt !== undefined ? 'canceled' : payment.status || 'unknown',
    amount: payment.amount,
    currency: payment.currency,
    description: payment.description,
    reference: payment.reference ?? '',
    customer_email: payment.customerEmail ?? '',
    created: isoOfWholeSecond(payment.createdAt),
    paid_at: isoOfWholeSecond(payment.paidAt),
    provider: payment.provider ?? '',
    country: payment.country ?? '',
    livemode: payment.mode === 'live' ? 'true' : 'false',
    hold_reason: payment.holdReason ?? '',
    coin: payment.coin ?? '',
    value_coin: payment.valueCoin ?? '',
    merchant_received: payment.merchantReceived ?? '',
    fee_coin: feeInCoin(payment.valueCoin, payment.merchantReceived),
    txid_in: payment.txidIn ?? '',
    txid_out: payment.txidOut ?? '',
    payout_wallet: payment.payoutWallet ?? '',
  };
}
