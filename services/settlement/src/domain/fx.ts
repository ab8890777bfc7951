import { CURRENCIES, Decimal, type Currency } from '@hc/money';

/** USD per unit of each currency, as decimal strings. */
export type FxTable = Readonly<Record<Currency, string>>;

export const DEFAULT_FX_RATES_USD: FxTable = { USD: '1', EUR: '1.08', GBP: '1.27', CAD: '0.73', AUD: '0.66' };

/** Scale of settlement_locks.usd_rate: a rate is stored, and used, with at most this many decimals. */
export const USD_RATE_DECIMALS = 10;

const RATE_PATTERN = new RegExp(`^(0|[1-9][0-9]{0,9})(\\.[0-9]{1,${USD_RATE_DECIMALS}})?$`);

/**
 * Parses FX_RATES_USD: a JSON object with exactly the five currencies, each a positive decimal string.
 * Throws with every problem listed, so a bad table stops the service at boot, not at the first lock.
 */
export function parseFxTable(json: string): FxTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error('FX_RATES_USD must be a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('FX_RATES_USD must be a JSON object');
  const entries = parsed as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(entries)) {
    // An unknown key is most likely a typo of a known one; refusing it beats silently ignoring it.
    if (!(CURRENCIES as readonly string[]).includes(key)) problems.push(`${key} is not a supported currency`);
  }
  for (const currency of CURRENCIES) {
    const rate = entries[currency];
    if (rate === undefined) problems.push(`${currency} is missing`);
    else if (typeof rate !== 'string' || !RATE_PATTERN.test(rate) || new Decimal(rate).lte(0)) {
      problems.push(`${currency} must be a positive decimal string with at most ${USD_RATE_DECIMALS} decimals`);
    }
  }
  if (problems.length) throw new Error(`FX_RATES_USD: ${problems.join('; ')}`);
  return Object.fromEntries(CURRENCIES.map((c) => [c, entries[c] as string])) as Record<Currency, string>;
}

/**
 * The rate as it is locked: at most USD_RATE_DECIMALS decimals (half-up), so the stored rate and the
 * USD value computed from it always agree, whatever precision a rate source delivers.
 */
export function lockedRate(rate: Decimal): Decimal {
  return rate.toDecimalPlaces(USD_RATE_DECIMALS, Decimal.ROUND_HALF_UP);
}

/** The order's value in USD: amount × rate, rounded half-up to cents. */
export function usdValueOf(amount: Decimal, rate: Decimal): Decimal {
  return amount.times(rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}
