import { describe, expect, it } from '@jest/globals';
import { FIGURES, GOALS, judgeGoals } from './goals.ts';
import type { Figure } from './measure.ts';

const figure = (title: string, rate: number, p99 = 10, errors = 0): Figure => ({ title, rate, p50: 1, p99, errors, load: 1 });

describe('judgeGoals', () => {
  const baselines = [figure(FIGURES.pgInsert, 1000), figure(FIGURES.pgSelect, 10_000), figure(FIGURES.pgPage, 5000)];

  it('meets a goal only when share, p99 and errors all pass', () => {
    const verdicts = judgeGoals([
      ...baselines,
      figure(FIGURES.create, 350, 150),
      figure(FIGURES.idempotentCreate, 400, 201),
      figure(FIGURES.getPayment, 1990, 5),
      figure(FIGURES.listPayments, 1500, 60),
      figure(FIGURES.page, 990, 5),
    ]);
    expect(verdicts.map((verdict) => verdict.met)).toEqual([true, false, false, true, false]);
    expect(verdicts[1]!.line).toContain('p99 201 ms');
    expect(verdicts[2]!.line).toContain('share 19.9%');
    // The page view is judged against the API's read by id of the same round, not against pgbench.
    expect(verdicts[4]!.line).toContain('share 49.7%');
  });

  it('refuses a figure with errors however fast it was', () => {
    const [create] = judgeGoals([...baselines, figure(FIGURES.create, 900, 20, 3)]);
    expect(create!.met).toBe(false);
    expect(create!.line).toContain('3 errors');
  });

  it('says NOT MEASURED when a figure or its baseline is missing', () => {
    const verdicts = judgeGoals([figure(FIGURES.create, 500)]);
    expect(verdicts).toHaveLength(GOALS.length);
    expect(verdicts.every((verdict) => !verdict.met && verdict.line.startsWith('NOT MEASURED'))).toBe(true);
  });
});
