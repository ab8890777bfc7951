import { Decimal } from 'decimal.js';

/**
 * Money is a decimal string end to end. Arithmetic goes through decimal.js, never JavaScript numbers.
 * Amounts arrive from merchants as strings and are parsed strictly: no exponents, no signs, no spaces.
 */
export { Decimal };

export const CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD'] as const;
export type Currency = (typeof CURRENCIES)[number];

const PRICE_PATTERN = /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;

/** A price as the merchant wrote it, if it is a plain decimal with at most two decimals. */
export function parsePrice(raw: string): Decimal | undefined {
  return PRICE_PATTERN.test(raw) ? new Decimal(raw) : undefined;
}

/** Two-decimal string form of a price: "5" → "5.00", "5.5" → "5.50". */
export function formatPrice(value: Decimal): string {
  return value.toFixed(2);
}

/** `value` within [min, max], both inclusive, compared exactly. */
export function isWithin(value: Decimal, min: string, max: string): boolean {
  return value.gte(min) && value.lte(max);
}

/** The currency code in upper case, if it is one the platform takes (any letter case accepted). */
export function parseCurrency(raw: string): Currency | undefined {
  const upper = raw.toUpperCase();
  return (CURRENCIES as readonly string[]).includes(upper) ? (upper as Currency) : undefined;
}
