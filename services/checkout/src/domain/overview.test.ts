import { describe, expect, it } from '@jest/globals';
import { buildOverview, overviewPeriod } from './overview.ts';

describe('overviewPeriod', () => {
  it('ends at the next UTC midnight and lists every day, across a month end', () => {
    const period = overviewPeriod(3, new Date('2026-03-01T23:59:59Z'));
    expect(period.start.toISOString()).toBe('2026-02-27T00:00:00.000Z');
    expect(period.end.toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(period.dates).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
  });

  it('refuses 0, 91 and fractions with field days', () => {
    for (const days of [0, 91, 1.5])
      expect(() => overviewPeriod(days, new Date())).toThrow(expect.objectContaining({ code: 'invalid_request', field: 'days' }));
  });
});

describe('buildOverview', () => {
  it('adds pending to open, sums with decimals, and keeps empty days', () => {
    const period = overviewPeriod(2, new Date('2026-03-02T10:00:00Z'));
    const overview = buildOverview(period, {
      counts: [
        { day: '2026-03-02', status: 'pending', count: 2 },
        { day: '2026-03-02', status: 'open', count: 1 },
        { day: '2026-03-02', status: 'paid', count: 2 },
      ],
      volumes: [
        { day: '2026-03-02', currency: 'USD', amount: '0.10' },
        { day: '2026-03-02', currency: 'USD', amount: '0.20' },
      ],
      received: [],
      needsYou: [],
      needsYouTotal: 0,
    });
    expect(overview.counts).toEqual({ paid: 2, held: 0, failed: 0, expired: 0, open: 3 });
    expect(overview.volume).toEqual([{ currency: 'USD', amount: '0.30' }]);
    expect(overview.days.map((d) => [d.date, d.volume.length])).toEqual([
      ['2026-03-01', 0],
      ['2026-03-02', 1],
    ]);
  });
});
