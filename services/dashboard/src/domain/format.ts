import { fromUnixSeconds, SESSION_STATUS_NAMES, sessionStatusName } from '@hc/conversions';
import type { SessionStatus } from '@hc/proto/checkout/v1';

/**
 * How the dashboard shows values: pure, so pages stay simple and the rules are unit-tested. Amounts
 * are never parsed: the services give decimal strings and the page shows them as given.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const two = (n: number): string => String(n).padStart(2, '0');

/**
 * An instant in one fixed, unambiguous form in UTC ("23 Nov 2026, 05:03 UTC"), the same for every
 * user and server, so two staff reading one page see the same thing. Unix seconds (as the services
 * send them) or a Date; nothing → "".
 */
export function formatUnixSeconds(value: bigint | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  const at = value instanceof Date ? value : fromUnixSeconds(value);
  if (Number.isNaN(at.getTime())) return '';
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}, ${two(at.getUTCHours())}:${two(at.getUTCMinutes())} UTC`;
}

/** As formatUnixSeconds, with an em dash for nothing (a table cell or a field). */
export function formatTime(value: bigint | number | Date | null | undefined): string {
  return formatUnixSeconds(value) || '—';
}

/** A payment's instant (the Payment message's Unix milliseconds, ADR 0102) as a Date; unset → null. */
export function millisDate(ms: bigint | undefined): Date | null {
  return ms === undefined ? null : new Date(Number(ms));
}

/** "19.90 USD" from the decimal string and currency the services give. */
export function formatMoney(amount: string, currency: string): string {
  return `${amount} ${currency.toUpperCase()}`;
}

/** Amounts per currency (a customer's spent) as "19.90 USD, 5.00 EUR", or "—". */
export function formatAmounts(amounts: Record<string, string>): string {
  const entries = Object.entries(amounts).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? '—' : entries.map(([currency, amount]) => formatMoney(amount, currency)).join(', ');
}

/** A list page's `limit`: 20 unless a whole number from 1 to 100 is asked for. */
export function pageSize(raw: unknown): number {
  const value = typeof raw === 'string' && /^[0-9]{1,3}$/.test(raw) ? Number(raw) : 20;
  return value >= 1 && value <= 100 ? value : 20;
}

/** A payment's status as the API writes it ("paid", "held", …; @hc/conversions), "unknown" for none. */
export function statusWord(status: SessionStatus): string {
  return sessionStatusName(status) ?? 'unknown';
}

/**
 * A payment's status word for lists and pages: a canceled payment link reads "canceled", unless money
 * reached it anyway — then its own status ("held" for the merchant's review, "paid" once accepted), so a
 * hold to decide on is never hidden behind the cancel (docs/adr/0080).
 */
export function paymentStatusWord(payment: { readonly status: string; readonly canceledAt?: bigint | undefined }): string {
  const word = payment.status || 'unknown';
  return payment.canceledAt !== undefined && word !== 'held' && word !== 'paid' ? 'canceled' : word;
}

/** The statuses a payments list can be filtered by, in the API's order. */
export const PAYMENT_STATUSES = SESSION_STATUS_NAMES;
