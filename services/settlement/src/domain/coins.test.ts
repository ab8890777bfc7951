import { describe, expect, it } from '@jest/globals';
import { Decimal } from '@hc/money';
import { formatCoin, isDollarCoin, merchantShare, parseCoinAmount } from './coins.ts';

describe('coin amounts', () => {
  it.each([
    ['9.7', '9.700000'],
    ['0', '0.000000'],
    ['5.0000001', '5.000000'],
    ['1.2345679', '1.234567'], // cut, not rounded up
    ['123456789.123456', '123456789.123456'],
  ])('%s shows as %s', (value, shown) => {
    expect(formatCoin(new Decimal(value))).toBe(shown);
  });

  it('parses plain non-negative decimals only', () => {
    expect(parseCoinAmount('9.700000')?.toFixed(6)).toBe('9.700000');
    expect(parseCoinAmount('0')?.toFixed(6)).toBe('0.000000');
    for (const raw of ['', '-1', '1e3', '.5', '1.', ' 1', '01', 'NaN', 'Infinity']) expect(parseCoinAmount(raw)).toBeUndefined();
  });

  it('counts only polygon USDC and USDT as dollar coins', () => {
    expect(isDollarCoin('polygon_usdc')).toBe(true);
    expect(isDollarCoin('polygon_usdt')).toBe(true);
    expect(isDollarCoin('polygon_matic')).toBe(false);
    expect(isDollarCoin('POLYGON_USDC')).toBe(false);
  });
});

describe('what the merchant receives', () => {
  it.each([
    ['9.700000', 150, '9.554500'],
    ['9.700000', 0, '9.700000'],
    ['9.700000', 10_000, '0.000000'],
    ['1.000001', 333, '0.966700'], // 0.966700967: rounded down
    ['0.000001', 150, '0.000000'], // 0.000000985: rounded down, never up to 0.000001
    ['33.333333', 299, '32.336666'], // 32.33666633…
  ])('%s after %i bps is %s (rounded down to six decimals)', (value, feeBps, received) => {
    expect(formatCoin(merchantShare(new Decimal(value), feeBps))).toBe(received);
  });
});
