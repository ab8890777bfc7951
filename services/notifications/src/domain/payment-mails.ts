import type { Payment, PaymentEvent } from '@hc/proto/checkout/v1/events';
import type { MailKind } from './mail.ts';

/** What the receipt template shows; every value already text, escaped by the template. */
export interface ReceiptView {
  readonly merchantName: string;
  readonly description: string;
  readonly amount: string;
  readonly currency: string;
  readonly paymentId: string;
  readonly reference: string | null;
  /** When it was paid, in UTC words: "25 Nov 2026, 01:25 UTC". */
  readonly paidOn: string;
  /** "19.303000 USDC (Polygon)", null when nothing on chain is known (a Test payment may have it all). */
  readonly arrived: string | null;
  readonly txid: string | null;
  /** The payment's own page (the tracking page of a payment link), which shows the receipt once paid. */
  readonly link: string;
  readonly test: boolean;
}

/** What a merchant alert template shows. */
export interface AlertView {
  readonly merchantName: string;
  readonly description: string;
  readonly amount: string;
  readonly currency: string;
  readonly paymentId: string;
  readonly reference: string | null;
  readonly holdReason: string | null;
  readonly holdAcceptable: boolean;
  readonly status: string;
  readonly dashboardLink: string;
  readonly test: boolean;
}

const COINS: Record<string, string> = { polygon_usdc: 'USDC (Polygon)', polygon_usdt: 'USDT (Polygon)' };

/** Unix milliseconds (a bigint from the contract) in UTC words. */
export function utcWords(ms: number): string {
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  }).format(new Date(ms));
  return `${text} UTC`;
}

function merchantOf(payment: Payment): string {
  return payment.merchantName && payment.merchantName.length > 0 ? payment.merchantName : 'The shop';
}

export function receiptView(event: PaymentEvent, payment: Payment): ReceiptView {
  const paidAt = Number(payment.paidAt ?? event.occurredAt);
  const coin = payment.coin ? (COINS[payment.coin] ?? payment.coin) : null;
  return {
    merchantName: merchantOf(payment),
    description: payment.description,
    amount: payment.amount,
    currency: payment.currency,
    paymentId: payment.id,
    reference: payment.reference ?? null,
    paidOn: utcWords(paidAt),
    arrived: payment.valueCoin && coin ? `${payment.valueCoin} ${coin}` : null,
    txid: payment.txidIn ?? null,
    link: payment.trackingUrl ?? payment.url,
    test: !event.livemode,
  };
}

export function alertView(event: PaymentEvent, payment: Payment, publicBaseUrl: string): AlertView {
  const mode = event.livemode ? 'live' : 'test';
  return {
    merchantName: merchantOf(payment),
    description: payment.description,
    amount: payment.amount,
    currency: payment.currency,
    paymentId: payment.id,
    reference: payment.reference ?? null,
    holdReason: payment.holdReason ?? null,
    holdAcceptable: payment.holdAcceptable,
    status: payment.status,
    dashboardLink: `${publicBaseUrl.replace(/\/+$/, '')}/dashboard/${mode}/payments/${encodeURIComponent(payment.id)}`,
    test: !event.livemode,
  };
}

/** The mails one payment event causes, before the account's settings are asked. */
export interface WantedMail {
  readonly kind: MailKind;
  readonly dedupeKey: string;
}

/**
 * `payment.paid` → a receipt (one per payment: the key is the payment, not the event) and, for a Live
 * payment paid after it expired, a late-payment alert; `payment.held` → a held alert (one per held
 * event: a payment held again for another cause alerts again). Other types cause no mail.
 */
export function wantedMails(event: PaymentEvent, payment: Payment): WantedMail[] {
  if (event.type === 'payment.held') return [{ kind: 'payment_held', dedupeKey: `payment_held:${event.id}` }];
  if (event.type !== 'payment.paid') return [];
  const mails: WantedMail[] = [{ kind: 'receipt', dedupeKey: `receipt:${payment.id}` }];
  const paidAt = payment.paidAt === undefined ? Number(event.occurredAt) : Number(payment.paidAt);
  if (event.livemode && paidAt > Number(payment.expiresAt)) mails.push({ kind: 'late_payment', dedupeKey: `late_payment:${payment.id}` });
  return mails;
}
