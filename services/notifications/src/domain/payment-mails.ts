import type { PaymentEvent } from '@hc/proto/checkout/v1/events';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { DEFAULT_LOCALE, formatAmount, supportedLocale, type Locale } from '@hc/i18n';
import type { MailKind } from './mail.ts';

/**
 * What the receipt template shows, in the buyer's language (the page's they started from, else the
 * payment's `locale`, docs/adr/0089):
 * the words come from locales/<locale>.json, the amount and date from Intl. A card buyer reads no coin,
 * chain or transaction id here: those are the merchant's (dashboard, statement).
 */
export interface ReceiptView {
  readonly locale: Locale;
  /** Null when the session has no merchant name: the template says "The shop" in the buyer's words. */
  readonly merchantName: string | null;
  readonly description: string;
  /** "19,90 $" in de: the amount in the buyer's format, the currency as set. */
  readonly amount: string;
  readonly paymentId: string;
  readonly reference: string | null;
  readonly paidAt: Date;
  /** The payment's own page (the tracking page of a payment link), which shows the receipt once paid. */
  readonly link: string;
  readonly test: boolean;
  readonly brand: MailBrand;
}

/** The shop's brand in a buyer's mail (docs/adr/0096): its logo's absolute address and its accent. */
export interface MailBrand {
  readonly logoUrl: string | null;
  /** #rrggbb, white text on it at least 4.5:1 (accounts checked it). */
  readonly accentColour: string | null;
}

export const NO_MAIL_BRAND: MailBrand = { logoUrl: null, accentColour: null };

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

export function receiptView(event: PaymentEvent, payment: Payment, brand: MailBrand = NO_MAIL_BRAND): ReceiptView {
  // The language of the page the buyer started from, else the merchant's choice; a payment made
  // before locales (or started over the API with none chosen) has its receipt in English.
  const locale = supportedLocale(payment.pageLocale) ?? supportedLocale(payment.locale) ?? DEFAULT_LOCALE;
  return {
    locale,
    merchantName: payment.merchantName && payment.merchantName.length > 0 ? payment.merchantName : null,
    description: payment.description,
    amount: formatAmount(payment.amount, payment.currency, locale),
    paymentId: payment.id,
    reference: payment.reference ?? null,
    paidAt: new Date(Number(payment.paidAt ?? event.occurredAt)),
    link: payment.trackingUrl ?? payment.url,
    test: !event.livemode,
    brand,
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
