import type { Provider } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { apiSeconds, checkoutSessionObject, type CheckoutSessionObject } from './checkout-session.ts';

/** The payment object of the API: every session field (object "payment") plus the payment's own. */
export interface PaymentObject extends Omit<CheckoutSessionObject, 'object'> {
  object: 'payment';
  paid_at: number | null;
  provider: string | null;
  hold_reason: string | null;
  hold_acceptable: boolean;
  canceled_at: number | null;
  settlement: {
    coin: string | null;
    value_coin: string | null;
    merchant_received: string | null;
    txid_in: string | null;
    txid_out: string | null;
    payout_wallet: string | null;
  };
}

/** The API's payment object: the one mapper from the Payment message (ADR 0102). */
export function paymentObject(payment: Payment): PaymentObject {
  return {
    ...checkoutSessionObject(payment),
    object: 'payment',
    paid_at: apiSeconds(payment.paidAt),
    provider: payment.provider ?? null,
    hold_reason: payment.holdReason ?? null,
    hold_acceptable: payment.holdAcceptable,
    canceled_at: apiSeconds(payment.canceledAt),
    settlement: {
      coin: payment.coin ?? null,
      value_coin: payment.valueCoin ?? null,
      merchant_received: payment.merchantReceived ?? null,
      txid_in: payment.txidIn ?? null,
      txid_out: payment.txidOut ?? null,
      // Fixed when the buyer started; null before.
      payout_wallet: payment.startedAt === undefined ? null : (payment.payoutWallet ?? null),
    },
  };
}

export interface ProviderEntry {
  id: string;
  name: string;
  note: string;
  recommended: boolean;
  handoff_url: string;
}

export function providerEntry(provider: Provider): ProviderEntry {
  return { id: provider.id, name: provider.name, note: provider.note, recommended: provider.recommended, handoff_url: provider.handoffUrl };
}
