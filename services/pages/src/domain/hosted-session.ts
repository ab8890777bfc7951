import { sessionStatusName, type SessionStatusName } from '@hc/conversions';
import type { HostedSession as HostedSessionMessage } from '@hc/proto/checkout/v1';

/** The buyer's view of a session as the pages use it (from checkout's HostedSession message). */
export interface HostedSession {
  readonly id: string;
  readonly status: SessionStatusName;
  readonly livemode: boolean;
  readonly merchantName: string;
  /** Decimal string. */
  readonly amount: string;
  readonly currency: string;
  readonly description: string;
  readonly customerEmail: string | null;
  readonly country: string | null;
  readonly started: boolean;
  readonly canceled: boolean;
  readonly successUrl: string | null;
  readonly cancelUrl: string | null;
  readonly reference: string | null;
  readonly provider: string | null;
  /** Payment links: who it is for and the merchant's note (null otherwise). */
  readonly customerName: string | null;
  readonly memo: string | null;
  /** api, checkout or payment_link (only links have a tracking page). */
  readonly source: string;
  /** Unix seconds. */
  readonly expiresAt: number;
  /** Unpaid, but the shop cannot take payments now (suspended, or Live without a payout wallet). */
  readonly unavailable: boolean;
  /** The session's account: for asking the notifications context whether it sends receipts; never shown. */
  readonly accountId: string;
  /** The buyer's language the merchant chose at create; null: the buyer's browser decides. */
  readonly locale: string | null;
  readonly providers: readonly { id: string; name: string; note: string; recommended: boolean; handoffUrl: string }[];
}

export function fromMessage(message: HostedSessionMessage): HostedSession {
  const status = sessionStatusName(message.status);
  if (!status) throw new Error(`checkout sent session status ${message.status}`);
  return {
    id: message.id,
    status,
    livemode: message.livemode,
    merchantName: message.merchantName,
    amount: message.amount,
    currency: message.currency,
    description: message.description,
    customerEmail: message.customerEmail ?? null,
    country: message.country ?? null,
    started: message.started,
    canceled: message.canceled,
    successUrl: message.successUrl ?? null,
    cancelUrl: message.cancelUrl ?? null,
    reference: message.reference ?? null,
    provider: message.provider ?? null,
    customerName: message.customerName ?? null,
    memo: message.memo ?? null,
    source: message.source,
    expiresAt: Number(message.expiresAt),
    unavailable: message.unavailable,
    accountId: message.accountId,
    locale: message.locale ?? null,
    providers: message.providers.map((p) => ({
      id: p.id,
      name: p.name,
      note: p.note,
      recommended: p.recommended,
      handoffUrl: p.handoffUrl,
    })),
  };
}
