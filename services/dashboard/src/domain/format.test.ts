import { describe, expect, it } from '@jest/globals';
import { formatAmounts, formatMoney, formatTime, formatUnixSeconds, pageSize, paymentStatusWord } from './format.ts';

describe('dashboard formatting', () => {
  it('writes an instant in UTC with the month in words, whatever the server zone', () => {
    expect(formatUnixSeconds(BigInt(Date.UTC(2026, 10, 23, 5, 3, 59) / 1000))).toBe('23 Nov 2026, 05:03 UTC');
    expect(formatUnixSeconds(0)).toBe('1 Jan 1970, 00:00 UTC');
    expect(formatTime(new Date('2026-11-23T05:12:59Z'))).toBe('23 Nov 2026, 05:12 UTC');
  });

  it('writes nothing for an absent instant: empty, or a dash in a table cell', () => {
    expect(formatUnixSeconds(undefined)).toBe('');
    expect(formatTime(null)).toBe('—');
    expect(formatTime(undefined)).toBe('—');
  });

  it('shows amounts exactly as the services give them, per currency in a stable order', () => {
    expect(formatMoney('19.90', 'usd')).toBe('19.90 USD');
    expect(formatAmounts({ USD: '19.90', EUR: '0.10' })).toBe('0.10 EUR, 19.90 USD');
    expect(formatAmounts({})).toBe('—');
  });

  it('takes a page size of 1 to 100 and falls back to 20 for anything else', () => {
    expect(pageSize('50')).toBe(50);
    for (const raw of [undefined, '', '0', '101', '-1', '1e2', '20.5', ['5']]) expect(pageSize(raw)).toBe(20);
  });

  it('shows a canceled link as canceled, unless money reached it: then held (to decide on) or paid (accepted)', () => {
    expect(paymentStatusWord({ status: 'expired', canceledAt: 1n })).toBe('canceled');
    expect(paymentStatusWord({ status: 'held', canceledAt: 1n })).toBe('held');
    expect(paymentStatusWord({ status: 'paid', canceledAt: 1n })).toBe('paid');
    expect(paymentStatusWord({ status: 'expired' })).toBe('expired');
  });
});
