import { describe, expect, it } from '@jest/globals';
import { Decimal } from '@hc/money';
import { DEFAULT_FX_RATES_USD, lockedRate, parseFxTable, usdValueOf } from './fx.ts';

describe('USD value of an order', () => {
  it.each([
    ['10.00', '1', '10.00'],
    ['10.00', '1.08', '10.80'],
    ['12.34', '0.73', '9.01'], // 9.0082
    ['10.05', '1.08', '10.85'], // 10.854
    ['1.25', '0.66', '0.83'], // 0.825: half-up, not half-even (which would give 0.82)
    ['0.05', '0.5', '0.03'], // 0.025
    ['100000.00', '1.27', '127000.00'],
    ['3.33', '0.3333333333', '1.11'], // 1.109999999889
  ])('%s × %s = %s USD, rounded half-up to cents', (amount, rate, usd) => {
    expect(usdValueOf(new Decimal(amount), new Decimal(rate)).toFixed(2)).toBe(usd);
  });

  it('locks a rate with at most ten decimals, half-up', () => {
    expect(lockedRate(new Decimal('1.08')).toFixed()).toBe('1.08');
    expect(lockedRate(new Decimal('0.123456789049')).toFixed()).toBe('0.123456789');
    expect(lockedRate(new Decimal('0.12345678905')).toFixed()).toBe('0.1234567891');
  });
});

describe('FX_RATES_USD', () => {
  it('accepts the default table', () => {
    expect(parseFxTable(JSON.stringify(DEFAULT_FX_RATES_USD))).toEqual(DEFAULT_FX_RATES_USD);
  });

  it.each([
    ['not JSON', '{USD:1}', /JSON object/],
    ['an array', '["1"]', /JSON object/],
    ['a missing currency', JSON.stringify({ ...DEFAULT_FX_RATES_USD, AUD: undefined }), /AUD is missing/],
    ['an unknown currency', JSON.stringify({ ...DEFAULT_FX_RATES_USD, JPY: '0.0067' }), /JPY is not a supported currency/],
    ['a number', JSON.stringify({ ...DEFAULT_FX_RATES_USD, EUR: 1.08 }), /EUR must be a positive decimal string/],
    ['zero', JSON.stringify({ ...DEFAULT_FX_RATES_USD, EUR: '0' }), /EUR must be/],
    ['a negative rate', JSON.stringify({ ...DEFAULT_FX_RATES_USD, EUR: '-1.08' }), /EUR must be/],
    ['an exponent', JSON.stringify({ ...DEFAULT_FX_RATES_USD, EUR: '1e0' }), /EUR must be/],
    ['eleven decimals', JSON.stringify({ ...DEFAULT_FX_RATES_USD, EUR: '1.00000000001' }), /EUR must be/],
  ])('refuses %s', (_label, json, message) => {
    expect(() => parseFxTable(json)).toThrow(message);
  });

  it('lists every problem at once', () => {
    expect(() => parseFxTable('{"USD":"1"}')).toThrow(/EUR is missing; GBP is missing; CAD is missing; AUD is missing/);
  });
});
