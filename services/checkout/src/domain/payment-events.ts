import type { JsonObject } from '@bufbuild/protobuf';
import { checkoutEventSubject, eventPayload, PAYMENT_EVENT, type PaymentEventType } from '@hc/events/contracts';
import { hostedPageUrl, type Payment } from './payment.ts';
import { trackingPageUrl } from './payment-link.ts';
import { findProvider, type ProviderDefinition } from './providers.ts';
import { webhookSuccessUrl } from './success-url.ts';

/**
 * Events the checkout context publishes on JetStream (subject `checkout.<type>.<payment id>`, e.g.
 * `checkout.payment.paid.pay_01…`), one per state change, committed with it through the outbox. The payload
 * carries a snapshot of the payment in the webhook payment shape (camelCase, milliseconds), so the
 * webhooks context can send it as it is. Documented in docs/events.md.
 */
export { PAYMENT_EVENT_TYPES, type PaymentEventType } from '@hc/events/contracts';

export interface PaymentSnapshot {
  id: string;
  mode: 'live' | 'test';
  source: Payment['source'];
  checkoutId: string | null;
  planLabel: string | null;
  description: string;
  reference: string | null;
  customerEmail: string | null;
  amount: string;
  currency: string;
  status: Payment['status'];
  provider: string | null;
  providerName: string | null;
  depositAddress: string | null;
  payoutWallet: string | null;
  feeBps: number;
  valueCoin: string | null;
  merchantReceived: string | null;
  coin: string | null;
  holdReason: string | null;
  holdAcceptable: boolean;
  txidIn: string | null;
  txidOut: string | null;
  metadata: Record<string, string> | null;
  customerName: string | null;
  memo: string | null;
  trackingUrl: string | null;
  canceledAt: number | null;
  successUrl: string | null;
  createdAt: number;
  paidAt: number | null;
  expiresAt: number;
  url: string;
  /** The merchant's display name kept on the payment (a receipt's sender), when it has one. */
  merchantName: string | null;
  /** The buyer's language the merchant chose at create (docs/adr/0089). */
  locale: string | null;
  /** The hosted page's language when the buyer started: the receipt speaks it before `locale`. */
  pageLocale: string | null;
  /** Unix milliseconds of the buyer's first start. */
  startedAt: number | null;
  cancelUrl: string | null;
  /** The country the buyer gave at start. */
  country: string | null;
}

export interface PaymentEvent {
  /** Unique per state change and stable across re-publication: the outbox msg id and Nats-Msg-Id. */
  id: string;
  type: PaymentEventType;
  /** Unix milliseconds. */
  occurredAt: number;
  accountId: string;
  livemode: boolean;
  payment: PaymentSnapshot;
}

const ms = (date: Date | null): number | null => (date === null ? null : date.getTime());

export function paymentSnapshot(p: Payment, publicBaseUrl: string, providerName: string | null): PaymentSnapshot {
  return {
    id: p.id,
    mode: p.livemode ? 'live' : 'test',
    source: p.source,
    checkoutId: p.checkoutId,
    planLabel: p.planLabel,
    description: p.description,
    reference: p.reference,
    customerEmail: p.customerEmail,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    provider: p.provider,
    providerName,
    depositAddress: p.depositAddress,
    payoutWallet: p.payoutWallet,
    feeBps: p.feeBps ?? 0,
    valueCoin: p.settlement.valueCoin,
    merchantReceived: p.settlement.merchantReceived,
    coin: p.settlement.coin,
    holdReason: p.holdReason,
    holdAcceptable: p.holdAcceptable,
    txidIn: p.settlement.txidIn,
    txidOut: p.settlement.txidOut,
    metadata: p.metadata === null ? null : { ...p.metadata },
    customerName: p.customerName,
    memo: p.memo,
    trackingUrl: p.source === 'payment_link' ? trackingPageUrl(publicBaseUrl, p.id) : null,
    canceledAt: ms(p.canceledAt),
    successUrl: webhookSuccessUrl(p.successUrl),
    createdAt: p.createdAt.getTime(),
    paidAt: ms(p.paidAt),
    expiresAt: p.expiresAt.getTime(),
    url: hostedPageUrl(publicBaseUrl, p.id),
    merchantName: p.merchantName,
    locale: p.locale,
    pageLocale: p.pageLocale,
    startedAt: ms(p.startedAt),
    cancelUrl: p.cancelUrl,
    country: p.country,
  };
}

/** What a payment event needs besides the payment: where hosted pages live, and the providers offered. */
export interface PaymentEventContext {
  readonly publicBaseUrl: string;
  readonly providers: readonly ProviderDefinition[];
}

/** The payment as calls and events carry it (hc.checkout.v1.Payment's JSON form, docs/adr/0102). */
export function paymentOf(payment: Payment, context: PaymentEventContext): PaymentSnapshot {
  const providerName = payment.provider ? (findProvider(context.providers, payment.provider)?.name ?? null) : null;
  return paymentSnapshot(payment, context.publicBaseUrl, providerName);
}

/** The event a state change publishes: the payment as it is after the change, at `at`. */
export function paymentEvent(payment: Payment, type: PaymentEventType, id: string, at: Date, context: PaymentEventContext): PaymentEvent {
  return {
    id,
    type,
    occurredAt: at.getTime(),
    accountId: payment.accountId,
    livemode: payment.livemode,
    payment: paymentOf(payment, context),
  };
}

/**
 * The event id of a state change. Deterministic, so re-applying the same change (a redelivered
 * verdict, a retried request) can never publish a second event: `<payment>.<type>[.<cause>]`.
 */
export function paymentEventId(paymentId: string, type: PaymentEventType, cause?: string): string {
  return cause === undefined ? `${paymentId}.${type}` : `${paymentId}.${type}.${cause}`;
}

/** The payment id ends the subject, so erasure can purge one payment's messages (ADR 0017). */
export function eventSubject(type: PaymentEventType, paymentId: string): string {
  return checkoutEventSubject(type, paymentId);
}

/**
 * The outbox payload of a payment event: the hc.checkout.v1.PaymentEvent message (proto/hc/checkout/v1/events.proto)
 * built from it, in the events' JSON (docs/adr/0022). Throws when the event breaks its own contract.
 */
export function paymentEventPayload(event: PaymentEvent): JsonObject {
  return eventPayload(PAYMENT_EVENT, event);
}
