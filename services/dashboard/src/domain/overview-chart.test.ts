import { describe, expect, it } from '@jest/globals';
import { barChart } from './overview-chart.ts';

describe('barChart', () => {
  it('scales to the largest value, keeps the values as given, and draws zero as no bar', () => {
    const chart = barChart([
      { label: '2026-03-08', tick: '03-08', value: '10.10' },
      { label: '2026-03-09', tick: '03-09', value: '0.00' },
      { label: '2026-03-10', tick: '03-10', value: '5.05' },
    ]);
    expect(chart.max).toBe('10.1');
    expect(chart.bars.map((b) => [b.value, b.height])).toEqual([
      ['10.10', 166],
      ['0.00', 0],
      ['5.05', 83],
    ]);
    expect(chart.bars.every((b) => b.y + b.height === chart.baseline)).toBe(true);
    expect(chart.bars.map((b) => b.tick)).toEqual(['03-08', '03-09', '03-10']);
  });

  it('labels every third day of thirty and hides values over bars', () => {
    const chart = barChart(Array.from({ length: 30 }, (_, i) => ({ label: `d${i}`, value: String(i) })));
    expect(chart.bars.filter((b) => b.tick !== '')).toHaveLength(10);
    expect(chart.bars.some((b) => b.showValue)).toBe(false);
    expect(chart.bars[1]!.height).toBeGreaterThanOrEqual(1);
  });

  it('draws nothing when every value is zero', () => {
    expect(barChart([{ label: 'paid', value: '0' }]).bars[0]!.height).toBe(0);
  });
});
