import { describe, expect, it } from '@jest/globals';
import { sandboxValueCoin } from './simulation.ts';

describe('sandbox amounts', () => {
  it('delivers 97% of the USD value for paid and half for underpaid, with six decimals', () => {
    expect(sandboxValueCoin('10.00', 'paid')).toBe('9.700000');
    expect(sandboxValueCoin('10.00', 'underpaid')).toBe('5.000000');
    expect(sandboxValueCoin('12.35', 'paid')).toBe('11.979500');
    expect(sandboxValueCoin('0.01', 'underpaid')).toBe('0.005000');
  });
});
