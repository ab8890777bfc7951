import { ApiError } from '@hc/errors';
import type { Payment } from './payment.ts';
import type { Transition } from './payment-transitions.ts';

/**
 * Payment links (spec: source `payment_link`): a payment the merchant makes for one buyer from the
 * dashboard, with its own lifetime, who it is for, a memo, and a read-only tracking page. Pure rules.
 */
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const UNIT_MS = { m: 60 * 1000, h: HOUR_MS, d: DAY_MS } as const;

export const LINK_LIFETIME = { minMs: HOUR_MS, maxMs: 90 * DAY_MS, defaultMs: 7 * DAY_MS } as const;
export const LINK_LIMITS = { customerName: 120, memo: 500 } as const;

/** `90m`, `24h`, `7d`: a whole number and a unit, from 1 hour to 90 days; absent means 7 days. */
export function linkLifetimeMs(raw: string | undefined): number {
  if (raw === undefined) return LINK_LIFETIME.defaultMs;
  const match = /^([1-9][0-9]{0,6})([mhd])$/.exec(raw.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : Number.NaN;
  if (!(ms >= LINK_LIFETIME.minMs && ms <= LINK_LIFETIME.maxMs)) throw new ApiError('invalid_lifetime', undefined, 'lifetime');
  return ms;
}

function optionalText(raw: string | undefined, max: number, code: 'invalid_customer_name' | 'invalid_memo', field: string): string | null {
  if (raw === undefined) return null;
  if (raw.trim() === '' || [...raw].length > max) throw new ApiError(code, undefined, field);
  return raw;
}

export function linkCustomerName(raw: string | undefined): string | null {
  return optionalText(raw, LINK_LIMITS.customerName, 'invalid_customer_name', 'customer_name');
}

export function linkMemo(raw: string | undefined): string | null {
  return optionalText(raw, LINK_LIMITS.memo, 'invalid_memo', 'memo');
}

/** The read-only page that shows the buyer the state of a payment link (services/pages). */
export function trackingPageUrl(publicBaseUrl: string, id: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/track/${id}`;
}

/**
 * The merchant cancels a payment link. Allowed while nobody has paid it: `open`, or `pending` (a
 * buyer went to a provider but no money has been reported). A link started while a borrowed dashboard
 * pointed the account elsewhere must be stoppable by the merchant (issue 47 item 1, docs/adr/0081).
 * The payment becomes `expired` with `canceled_at`, and `payment.canceled` is published. Canceling
 * again changes nothing. Any other payment, or a finished or expired one, is refused with
 * `not_cancelable`. Money that still arrives for a canceled payment is a late delivery for settlement
 * and the verdict rules, never a reason to refuse the cancel beforehand: nobody can know it is coming.
 */
export function cancelTransition(payment: Payment, now: Date): Transition | null {
  if (payment.source !== 'payment_link') {
    throw new ApiError('not_cancelable', 'Only payment links can be canceled; this payment was not made from a link.');
  }
  if (payment.canceledAt !== null) return null;
  const unpaid = payment.status === 'open' || payment.status === 'pending';
  if (!unpaid || now.getTime() >= payment.expiresAt.getTime()) {
    throw new ApiError('not_cancelable', `The payment link is ${unpaid ? 'expired' : payment.status}: it can no longer be canceled.`);
  }
  return { patch: { status: 'expired', canceledAt: now }, event: 'payment.canceled' };
}
