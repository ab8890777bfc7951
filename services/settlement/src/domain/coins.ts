import { Decimal } from '@hc/money';

/** Dollar-pegged coins: they count 1:1 as USD. Anything else that arrives is held. */
export const DOLLAR_COINS = ['polygon_usdc', 'polygon_usdt'] as const;
export type DollarCoin = (typeof DOLLAR_COINS)[number];

/** Coin amounts are shown and stored with six decimals (the coins' own precision). */
export const COIN_DECIMALS = 6;

export function isDollarCoin(coin: string): coin is DollarCoin {
  return (DOLLAR_COINS as readonly string[]).includes(coin);
}

const COIN_AMOUNT_PATTERN = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** A coin amount as a processor reported it: a plain, non-negative decimal string. */
export function parseCoinAmount(raw: string): Decimal | undefined {
  return COIN_AMOUNT_PATTERN.test(raw) ? new Decimal(raw) : undefined;
}

/** Six-decimal form of a coin amount. Extra digits are cut, never rounded up: we never overstate money. */
export function formatCoin(value: Decimal): string {
  return value.toDecimalPlaces(COIN_DECIMALS, Decimal.ROUND_DOWN).toFixed(COIN_DECIMALS);
}

/** What the merchant receives of `valueCoin` after a fee of `feeBps`: rounded down to six decimals. */
export function merchantShare(valueCoin: Decimal, feeBps: number): Decimal {
  return valueCoin
    .times(10_000 - feeBps)
    .div(10_000)
    .toDecimalPlaces(COIN_DECIMALS, Decimal.ROUND_DOWN);
}
