import type { MessageInitShape } from '@bufbuild/protobuf';
import { sessionStatusOf, unixSecondsBig as unixSeconds } from '@hc/conversions';
import type { SessionStatus as ProtoStatus, CheckoutSessionSchema } from '@hc/proto/checkout/v1';
import { hostedPageUrl, type CheckoutSession, type SessionStatus } from '../../domain/checkout-session.ts';

/** A status as the proto carries it (@hc/conversions: the one table of status words). */
export function protoStatus(status: SessionStatus): ProtoStatus {
  return sessionStatusOf(status);
}

export function sessionMessage(session: CheckoutSession, publicBaseUrl: string): MessageInitShape<typeof CheckoutSessionSchema> {
  return {
    id: session.id,
    url: hostedPageUrl(publicBaseUrl, session.id),
    status: protoStatus(session.status),
    livemode: session.livemode,
    amount: session.amount,
    currency: session.currency,
    description: session.description,
    reference: session.reference ?? undefined,
    customerEmail: session.customerEmail ?? undefined,
    created: unixSeconds(session.createdAt),
    expiresAt: unixSeconds(session.expiresAt),
    startedAt: session.startedAt ? unixSeconds(session.startedAt) : undefined,
    metadata: session.metadata ? { entries: { ...session.metadata } } : undefined,
    successUrl: session.successUrl ?? undefined,
    cancelUrl: session.cancelUrl ?? undefined,
    paidAt: session.paidAt ? unixSeconds(session.paidAt) : undefined,
    provider: session.provider ?? undefined,
    holdReason: session.holdReason ?? undefined,
    holdAcceptable: session.holdAcceptable,
    canceledAt: session.canceledAt ? unixSeconds(session.canceledAt) : undefined,
    country: session.country ?? undefined,
    locale: session.locale ?? undefined,
    settlement: {
      coin: session.settlement.coin ?? undefined,
      valueCoin: session.settlement.valueCoin ?? undefined,
      merchantReceived: session.settlement.merchantReceived ?? undefined,
      txidIn: session.settlement.txidIn ?? undefined,
      txidOut: session.settlement.txidOut ?? undefined,
      // Fixed when the buyer started; null before.
      payoutWallet: session.startedAt ? (session.payoutWallet ?? undefined) : undefined,
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
