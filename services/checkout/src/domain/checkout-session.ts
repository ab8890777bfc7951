import type { Currency } from '@hc/money';

/** Statuses of a checkout session, which is also its payment. */
export const SESSION_STATUSES = ['open', 'pending', 'paid', 'held', 'failed', 'expired'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** API sessions accept payments for 24 hours after creation. */
export const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Account and mode of the caller. Every read and write of a session is scoped by both. */
export interface Scope {
  readonly accountId: string;
  readonly livemode: boolean;
}

export interface CheckoutSession {
  readonly id: string;
  readonly accountId: string;
  readonly livemode: boolean;
  readonly status: SessionStatus;
  /** Decimal string, two decimals. */
  readonly amount: string;
  readonly currency: Currency;
  readonly description: string;
  readonly reference: string | null;
  readonly customerEmail: string | null;
  readonly metadata: Readonly<Record<string, string>> | null;
  readonly successUrl: string | null;
  readonly cancelUrl: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly startedAt: Date | null;
}

export function expiryFor(createdAt: Date): Date {
  return new Date(createdAt.getTime() + SESSION_LIFETIME_MS);
}

/** Unpaid sessions can still take a payment, or expire. */
export function isUnpaid(status: SessionStatus): boolean {
  return status === 'open' || status === 'pending';
}

/** An unpaid session read at or past its expiry becomes `expired`. */
export function shouldExpire(session: Pick<CheckoutSession, 'status' | 'expiresAt'>, now: Date): boolean {
  return isUnpaid(session.status) && now.getTime() >= session.expiresAt.getTime();
}

/** The hosted checkout page of a session. */
export function hostedPageUrl(publicBaseUrl: string, id: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/pay/${id}`;
}
