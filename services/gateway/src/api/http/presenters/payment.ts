import type { CheckoutSession, Provider } from '@hc/proto/checkout/v1';
import { checkoutSessionObject, type CheckoutSessionObject } from './checkout-session.ts';

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

const seconds = (value: bigint | undefined): number | null => (value === undefined ? null : Number(value));

export function paymentObject(payment: CheckoutSession): PaymentObject {
  const s = payment.settlement;
  return {
    ...checkoutSessionObject(payment),
    object: 'payment',
    paid_at: seconds(payment.paidAt),
    provider: payment.provider ?? null,
    hold_reason: payment.holdReason ?? null,
    hold_acceptable: payment.holdAcceptable,
    canceled_at: seconds(payment.canceledAt),
    settlement: {
      coin: s?.coin ?? null,
      value_coin: s?.valueCoin ?? null,
      merchant_received: s?.merchantReceived ?? null,
      txid_in: s?.txidIn ?? null,
      txid_out: s?.txidOut ?? null,
      payout_wallet: s?.payoutWallet ?? null,
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
