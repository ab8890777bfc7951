import { sessionStatusName, type SessionStatusName } from '@hc/conversions';
import type { CheckoutSession, SessionStatus } from '@hc/proto/checkout/v1';

/** The checkout session object of the API, field for field as the spec lists it. */
export interface CheckoutSessionObject {
  id: string;
  object: 'checkout_session';
  url: string;
  status: ApiStatus;
  livemode: boolean;
  amount: string;
  currency: string;
  description: string;
  reference: string | null;
  customer_email: string | null;
  created: number;
  expires_at: number;
  started_at: number | null;
  metadata: Record<string, string> | null;
  locale: string | null;
}

type ApiStatus = SessionStatusName;

export function apiStatus(status: SessionStatus): ApiStatus {
  const name = sessionStatusName(status);
  if (!name) throw new Error(`checkout service sent session status ${status}`);
  return name;
}

export function checkoutSessionObject(session: CheckoutSession): CheckoutSessionObject {
  return {
    id: session.id,
    object: 'checkout_session',
    url: session.url,
    status: apiStatus(session.status),
    livemode: session.livemode,
    amount: session.amount,
    currency: session.currency,
    description: session.description,
    reference: session.reference ?? null,
    customer_email: session.customerEmail ?? null,
    created: Number(session.created),
    expires_at: Number(session.expiresAt),
    started_at: session.startedAt === undefined ? null : Number(session.startedAt),
    metadata: session.metadata ? { ...session.metadata.entries } : null,
    locale: session.locale ?? null,
  };
}
