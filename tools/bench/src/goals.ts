/**
 * The throughput goals `pnpm bench` judges after every round (issues 33 and 50; docs/performance.md). A goal
 * names a platform figure, the baseline measured in the SAME round, the share of the baseline's rate
 * it must reach, and optionally a p99 ceiling; every goal also asks for no errors. Ratios, not absolute
 * rates: the machine is shared, and only what is measured side by side compares.
 */
import type { Figure } from './measure.ts';

export interface Goal {
  /** The platform figure's title (as printed). */
  readonly figure: string;
  /** The baseline figure's title, measured in the same round. */
  readonly baseline: string;
  /** Minimum rate as a share of the baseline's, in percent. */
  readonly minSharePercent: number;
  /** Maximum p99 latency in milliseconds, when the goal sets one. */
  readonly maxP99Ms?: number;
}

export const FIGURES = {
  pgInsert: 'pgbench insert session+outbox',
  pgSelect: 'pgbench pk select',
  pgPage: 'pgbench payments page',
  bareHttp: 'node:http fixed JSON',
  create: 'POST /v1/checkout_sessions',
  idempotentCreate: 'POST … with Idempotency-Key',
  getPayment: 'GET /v1/payments/:id',
  listPayments: 'GET /v1/payments?limit=20',
  page: 'GET /pay/{id} (pages, as ingress sends)',
} as const;

export const GOALS: readonly Goal[] = [
  { figure: FIGURES.create, baseline: FIGURES.pgInsert, minSharePercent: 35, maxP99Ms: 150 },
  { figure: FIGURES.idempotentCreate, baseline: FIGURES.pgInsert, minSharePercent: 30, maxP99Ms: 200 },
  { figure: FIGURES.getPayment, baseline: FIGURES.pgSelect, minSharePercent: 20 },
  // Issue 50: a list at the speed of its page query, a page view at the speed of the API's read.
  { figure: FIGURES.listPayments, baseline: FIGURES.pgPage, minSharePercent: 30, maxP99Ms: 60 },
  { figure: FIGURES.page, baseline: FIGURES.getPayment, minSharePercent: 50 },
];

export interface Verdict {
  readonly goal: Goal;
  readonly met: boolean;
  readonly line: string;
}

/** Judges each goal against one round's figures; a goal whose figures are missing is not met. */
export function judgeGoals(figures: readonly Figure[], goals: readonly Goal[] = GOALS): Verdict[] {
  const byTitle = new Map(figures.map((figure) => [figure.title, figure]));
  return goals.map((goal) => {
    const wanted = `${goal.figure} ≥ ${goal.minSharePercent}% of ${goal.baseline}${goal.maxP99Ms === undefined ? '' : `, p99 ≤ ${goal.maxP99Ms} ms`}, no errors`;
    const figure = byTitle.get(goal.figure);
    const baseline = byTitle.get(goal.baseline);
    if (!figure || !baseline || !(baseline.rate > 0)) return { goal, met: false, line: `NOT MEASURED  ${wanted}` };
    const share = (100 * figure.rate) / baseline.rate;
    const misses: string[] = [];
    if (share < goal.minSharePercent) misses.push(`share ${share.toFixed(1)}%`);
    if (goal.maxP99Ms !== undefined && !(figure.p99 <= goal.maxP99Ms)) misses.push(`p99 ${figure.p99.toFixed(0)} ms`);
    if (figure.errors > 0) misses.push(`${figure.errors} errors`);
    const measured = `${share.toFixed(1)}%, p99 ${figure.p99.toFixed(0)} ms, ${figure.errors} errors`;
    return misses.length === 0
      ? { goal, met: true, line: `MET      ${wanted} (${measured})` }
      : { goal, met: false, line: `NOT MET  ${wanted} (${measured}; short on ${misses.join(', ')})` };
  });
}
