// A checkout_sessions row as the Payment it holds: one mapping for Prisma's rows and the prepared
// statements' (payment-statements.ts aliases every column to its Prisma field name).
import { parseCurrency } from '@hc/money';
import { PAYMENT_STATUSES, type Payment, type PaymentSource, type PaymentStatus } from '../domain/payment.ts';
import type { Prisma } from './generated/prisma/client.ts';

type Decimals = 'amount' | 'usdValue' | 'valueCoin' | 'merchantReceived';
/** A Prisma row, or a prepared statement's (decimals as pg's exact text, already at the column's scale). */
export type PaymentRow = Omit<Prisma.CheckoutSessionGetPayload<object>, Decimals> & {
  [K in Decimals]:
    Prisma.CheckoutSessionGetPayload<object>[K] | (null extends Prisma.CheckoutSessionGetPayload<object>[K] ? string | null : string);
};

const decimal = (value: Prisma.Decimal | string, places: number): string => (typeof value === 'string' ? value : value.toFixed(places));
const decimalOrNull = (value: Prisma.Decimal | string | null, places: number): string | null =>
  value === null ? null : decimal(value, places);

export function toPayment(row: PaymentRow): Payment {
  const currency = parseCurrency(row.currency);
  if (!currency || !(PAYMENT_STATUSES as readonly string[]).includes(row.status)) {
    throw new Error(`checkout_sessions row ${row.id} holds an unknown currency or status`);
  }
  return {
    id: row.id,
    accountId: row.accountId,
    livemode: row.livemode,
    status: row.status as PaymentStatus,
    amount: decimal(row.amount, 2),
    currency,
    description: row.description,
    reference: row.reference,
    customerEmail: row.customerEmail,
    customerRevision: row.customerRevision,
    metadata: (row.metadata as Record<string, string> | null) ?? null,
    successUrl: row.successUrl,
    cancelUrl: row.cancelUrl,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    startedAt: row.startedAt,
    country: row.country,
    provider: row.provider,
    paidAt: row.paidAt,
    holdReason: row.holdReason,
    holdAcceptable: row.holdAcceptable,
    canceledAt: row.canceledAt,
    acceptedAt: row.acceptedAt,
    source: row.source as PaymentSource,
    customerName: row.customerName,
    memo: row.memo,
    locale: row.locale,
    pageLocale: row.pageLocale,
    checkoutId: row.checkoutId,
    planLabel: row.planLabel,
    merchantName: row.merchantName,
    feeBps: row.feeBps,
    depositAddress: row.depositAddress,
    payoutWallet: row.payoutWallet,
    usdValue: decimalOrNull(row.usdValue, 2),
    settlement: {
      coin: row.coin,
      valueCoin: decimalOrNull(row.valueCoin, 6),
      merchantReceived: decimalOrNull(row.merchantReceived, 6),
      txidIn: row.txidIn,
      txidOut: row.txidOut,
    },
  };
}
