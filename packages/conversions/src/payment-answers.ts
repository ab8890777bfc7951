import type { CheckoutSession, PaymentLink } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { sessionStatusName } from './session-status.ts';

/**
 * Reading the payment from checkout's answers during the rolling upgrade of ADR 0102: a checkout of
 * this release fills the Payment field, one of the previous release only the deprecated
 * CheckoutSession (or PaymentLink) field, converted here, once, for every reader. The whole file goes
 * with the deprecated fields in the next release (the contract step): readers then take `payment`.
 */
export function paymentOf(payment: Payment | undefined, session: CheckoutSession | undefined): Payment {
  if (payment) return payment;
  if (!session) throw new Error('checkout answered without a payment');
  return fromSession(session);
}

/** A list's payments: the Payment list when checkout sent one, else the deprecated list converted. */
export function paymentsOf(payments: readonly Payment[], sessions: readonly CheckoutSession[]): Payment[] {
  return payments.length > 0 || sessions.length === 0 ? [...payments] : sessions.map(fromSession);
}

/** A payment link's payment (the link's own fields are Payment fields now). */
export function linkPaymentOf(payment: Payment | undefined, link: PaymentLink | undefined): Payment {
  if (payment) return payment;
  const converted = paymentOf(undefined, link?.payment);
  return { ...converted, source: 'payment_link', trackingUrl: link?.trackingUrl, customerName: link?.customerName, memo: link?.memo };
}

/** The links of a list (as paymentsOf). */
export function linkPaymentsOf(payments: readonly Payment[], links: readonly PaymentLink[]): Payment[] {
  return payments.length > 0 || links.length === 0 ? [...payments] : links.map((link) => linkPaymentOf(undefined, link));
}

const ms = (seconds: bigint | undefined): bigint | undefined => (seconds === undefined ? undefined : seconds * 1000n);

/** What the previous release's message says of the payment (it had no source, fee or names). */
function fromSession(s: CheckoutSession): Payment {
  const settled = s.settlement;
  return {
    $typeName: 'hc.checkout.v1.Payment',
    id: s.id,
    mode: s.livemode ? 'live' : 'test',
    source: '',
    description: s.description,
    reference: s.reference,
    customerEmail: s.customerEmail,
    amount: s.amount,
    currency: s.currency,
    status: sessionStatusName(s.status) ?? '',
    provider: s.provider,
    payoutWallet: settled?.payoutWallet,
    feeBps: 0,
    valueCoin: settled?.valueCoin,
    merchantReceived: settled?.merchantReceived,
    coin: settled?.coin,
    holdReason: s.holdReason,
    holdAcceptable: s.holdAcceptable,
    txidIn: settled?.txidIn,
    txidOut: settled?.txidOut,
    metadata: s.metadata ? { ...s.metadata.entries } : undefined,
    canceledAt: ms(s.canceledAt),
    successUrl: s.successUrl,
    createdAt: s.created * 1000n,
    paidAt: ms(s.paidAt),
    expiresAt: s.expiresAt * 1000n,
    url: s.url,
    locale: s.locale,
    startedAt: ms(s.startedAt),
    cancelUrl: s.cancelUrl,
    country: s.country,
  };
}
