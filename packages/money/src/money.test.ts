import { describe, expect, it } from '@jest/globals';
import { formatPrice, isWithin, parseCurrency, parsePrice } from './index.ts';

describe('prices', () => {
  it.each([
    ['5', '5.00'],
    ['5.5', '5.50'],
    ['100000.00', '100000.00'],
    ['0.10', '0.10'],
    ['12.34', '12.34'],
  ])('normalizes %s to %s', (raw, normal) => {
    expect(formatPrice(parsePrice(raw)!)).toBe(normal);
  });

  it.each(['', ' 5', '5 ', '-5', '+5', '1e3', '5.', '.5', '5.001', '05', '1,00', 'NaN', 'Infinity', '0x10'])('refuses %j', (raw) => {
    expect(parsePrice(raw)).toBeUndefined();
  });

  it('compares range bounds exactly', () => {
    expect(isWithin(parsePrice('1.00')!, '1.00', '100000.00')).toBe(true);
    expect(isWithin(parsePrice('0.99')!, '1.00', '100000.00')).toBe(false);
    expect(isWithin(parsePrice('100000.00')!, '1.00', '100000.00')).toBe(true);
    expect(isWithin(parsePrice('100000.01')!, '1.00', '100000.00')).toBe(false);
  });

  it('keeps exact sums where floats would not', () => {
    expect(parsePrice('0.1')!.plus(parsePrice('0.2')!).toFixed(2)).toBe('0.30');
  });
});

describe('currencies', () => {
  it('accepts the five in any case and uppercases them', () => {
    expect(parseCurrency('usd')).toBe('USD');
    expect(parseCurrency('Eur')).toBe('EUR');
    expect(parseCurrency('GBP')).toBe('GBP');
    expect(parseCurrency('jpy')).toBeUndefined();
  });
});
