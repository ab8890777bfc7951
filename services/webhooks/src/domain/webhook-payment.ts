import type { Payment } from '@hc/proto/checkout/v1/payment';

/**
 * The spec's webhook payment shape (`data.payment`: camelCase names, Unix milliseconds, null where
 * unset), built here, in the context that talks to merchants, from the contract message checkout
 * publishes (hc.checkout.v1.Payment). Keys in the spec's order: the order merchants see.
 */
export interface WebhookPayment {
  id: string;
  mode: string;
  source: string;
  checkoutId: string | null;
  planLabel: string | null;
  description: string;
  reference: string | null;
  customerEmail: string | null;
  amount: string;
  currency: string;
  status: string;
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
  metadata: Record<string, unknown> | null;
  customerName: string | null;
  memo: string | null;
  trackingUrl: string | null;
  canceledAt: number | null;
  successUrl: string | null;
  createdAt: number;
  paidAt: number | null;
  expiresAt: number;
  url: string;
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
const ms = (value: bigint | undefined): number | null => (value === undefined ? null : Number(value));

export function webhookPayment(p: Payment): WebhookPayment {
  return {
    id: p.id,
    mode: p.mode,
    source: p.source,
    checkoutId: orNull(p.checkoutId),
    planLabel: orNull(p.planLabel),
    description: p.description,
    reference: orNull(p.reference),
    customerEmail: orNull(p.customerEmail),
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    provider: orNull(p.provider),
    providerName: orNull(p.providerName),
    depositAddress: orNull(p.depositAddress),
    payoutWallet: orNull(p.payoutWallet),
    feeBps: p.feeBps,
    valueCoin: orNull(p.valueCoin),
    merchantReceived: orNull(p.merchantReceived),
    coin: orNull(p.coin),
    holdReason: orNull(p.holdReason),
    holdAcceptable: p.holdAcceptable,
    txidIn: orNull(p.txidIn),
    txidOut: orNull(p.txidOut),
    // A google.protobuf.Struct field is a plain JSON object in protobuf-es (metadata values are strings).
    metadata: p.metadata === undefined ? null : { ...p.metadata },
    customerName: orNull(p.customerName),
    memo: orNull(p.memo),
    trackingUrl: orNull(p.trackingUrl),
    canceledAt: ms(p.canceledAt),
    successUrl: orNull(p.successUrl),
    createdAt: Number(p.createdAt),
    paidAt: ms(p.paidAt),
    expiresAt: Number(p.expiresAt),
    url: p.url,
  };
}
