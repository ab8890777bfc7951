import { describe, expect, it } from '@jest/globals';
import { dueAtMs, isLate, itemCount, runOpenLoop, spread } from './open-loop.ts';

describe('the open-loop schedule', () => {
  it('spaces items evenly at the rate, whatever earlier items do', () => {
    expect([0, 1, 2, 20].map((i) => dueAtMs(i, 20))).toEqual([0, 50, 100, 1000]);
    expect(itemCount(20, 20)).toBe(400);
    expect(itemCount(7, 0.5)).toBe(3);
  });

  it('counts a start as late only beyond the tolerance', () => {
    expect(isLate(100, 110, 10)).toBe(false);
    expect(isLate(100, 110.5, 10)).toBe(true);
    expect(isLate(100, 90, 10)).toBe(false);
  });

  it('starts every item without waiting for the earlier ones to finish', async () => {
    const started: number[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const run = runOpenLoop(1000, 0.005, async (index) => {
      started.push(index);
      // Item 0 holds until the last one has started: a closed loop would never get there.
      if (index === 0) await gate;
      if (index === 4) release();
    });
    const result = await run;
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(result.started).toBe(5);
  });
});

describe('spread', () => {
  it('gives nearest-rank p50, p99 and the maximum', () => {
    const samples = Array.from({ length: 200 }, (_, i) => 200 - i);
    expect(spread(samples)).toEqual({ n: 200, p50: 100, p99: 198, max: 200 });
    expect(spread([7])).toEqual({ n: 1, p50: 7, p99: 7, max: 7 });
  });

  it('is NaN without samples', () => {
    expect(spread([])).toMatchObject({ n: 0, p50: Number.NaN, max: Number.NaN });
  });
});
