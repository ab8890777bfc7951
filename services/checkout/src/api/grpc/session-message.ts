import type { MessageInitShape } from '@bufbuild/protobuf';
import { sessionStatusOf, unixSecondsBig as unixSeconds } from '@hc/conversions';
import type { SessionStatus as ProtoStatus, CheckoutSessionSchema } from '@hc/proto/checkout/v1';
import { hostedPageUrl, type Payment, type PaymentStatus } from '../../domain/payment.ts';

/** A status as the proto carries it (@hc/conversions: the one table of status words). */
export function protoStatus(status: PaymentStatus): ProtoStatus {
  return sessionStatusOf(status);
}

export function sessionMessage(payment: Payment, publicBaseUrl: string): MessageInitShape<typeof CheckoutSessionSchema> {
  return {
    id: payment.id,
    url: hostedPageUrl(publicBaseUrl, payment.id),
    status: protoStatus(payment.status),
    livemode: payment.livemode,
    amount: payment.amount,
    currency: payment.currency,
    description: payment.description,
    reference: payment.reference ?? undefined,
    customerEmail: payment.customerEmail ?? undefined,
    created: unixSeconds(payment.createdAt),
    expiresAt: unixSeconds(payment.expiresAt),
    startedAt: payment.startedAt ? unixSeconds(payment.startedAt) : undefined,
    metadata: payment.metadata ? { entries: { ...payment.metadata } } : undefined,
    successUrl: payment.successUrl ?? undefined,
    cancelUrl: payment.cancelUrl ?? undefined,
    paidAt: payment.paidAt ? unixSeconds(payment.paidAt) : undefined,
    provider: payment.provider ?? undefined,
    holdReason: payment.holdReason ?? undefined,
    holdAcceptable: payment.holdAcceptable,
    canceledAt: payment.canceledAt ? unixSeconds(payment.canceledAt) : undefined,
    country: payment.country ?? undefined,
    locale: payment.locale ?? undefined,
    settlement: {
      coin: payment.settlement.coin ?? undefined,
      valueCoin: payment.settlement.valueCoin ?? undefined,
      merchantReceived: payment.settlement.merchantReceived ?? undefined,
      txidIn: payment.settlement.txidIn ?? undefined,
      txidOut: payment.settlement.txidOut ?? undefined,
      // Fixed when the buyer started; null before.
      payoutWallet: payment.startedAt ? (payment.payoutWallet ?? undefined) : undefined,
    },
  };
}

/** The account as the gateway or the operator passed it (AccountSnapshot message → use-case shape). */
export function accountSnapshot(account: { payoutWallet?: string; feeBps: number; merchantName?: string } | undefined): {
  payoutWallet: string | null;
  feeBps: number;
  merchantName: string | null;
} {
  return { payoutWallet: account?.payoutWallet ?? null, feeBps: account?.feeBps ?? 0, merchantName: account?.merchantName ?? null };
}
