import type { GetOverviewResponse, StatusCounts } from '@hc/proto/checkout/v1';
import { barChart, type BarChart } from './overview-chart.ts';
import { formatMoney } from './format.ts';

/** The Overview's periods (docs/adr/0058): whole UTC days ending today. */
export const OVERVIEW_PERIODS = [
  { id: 'today', label: 'Today', days: 1 },
  { id: '7d', label: 'Last 7 days', days: 7 },
  { id: '30d', label: 'Last 30 days', days: 30 },
] as const;
export type OverviewPeriodId = (typeof OVERVIEW_PERIODS)[number]['id'];
export const DEFAULT_PERIOD: OverviewPeriodId = '7d';

/** The chosen period, or the default for a missing or unknown value (a link, not a form). */
export function overviewPeriod(raw: unknown): (typeof OVERVIEW_PERIODS)[number] {
  return OVERVIEW_PERIODS.find((period) => period.id === raw) ?? OVERVIEW_PERIODS.find((period) => period.id === DEFAULT_PERIOD)!;
}

/** The statuses the Overview counts, in the order the cards and the chart show them. */
export const OVERVIEW_STATUSES = ['paid', 'held', 'failed', 'expired', 'open'] as const;

function countsOf(counts: StatusCounts | undefined): Record<(typeof OVERVIEW_STATUSES)[number], string> {
  const value = (n: bigint | undefined) => String(n ?? 0n);
  return {
    paid: value(counts?.paid),
    held: value(counts?.held),
    failed: value(counts?.failed),
    expired: value(counts?.expired),
    open: value(counts?.open),
  };
}

export interface VolumeChart {
  readonly currency: string;
  readonly total: string;
  readonly chart: BarChart;
}

/** Everything the page prints, from checkout's answer: totals, one volume chart per currency, the status chart, the day table. */
export function overviewView(overview: GetOverviewResponse) {
  const counts = countsOf(overview.counts);
  const currencies = overview.volume.map((v) => v.currency);
  const volumeCharts: VolumeChart[] = overview.volume.map(({ currency, amount }) => ({
    currency,
    total: formatMoney(amount, currency),
    chart: barChart(
      overview.days.map((day) => ({
        label: day.date,
        tick: day.date.slice(5),
        value: day.volume.find((v) => v.currency === currency)?.amount ?? '0.00',
      })),
    ),
  }));
  return {
    counts,
    volume: overview.volume.map(({ currency, amount }) => formatMoney(amount, currency)),
    received: overview.received.map(({ currency, amount }) => formatMoney(amount, currency)),
    volumeCharts,
    statusChart: barChart(OVERVIEW_STATUSES.map((status) => ({ label: status, value: counts[status], tone: `bar-${status}` }))),
    currencies,
    days: overview.days.map((day) => ({
      date: day.date,
      counts: countsOf(day.counts),
      volume: currencies.map((currency) => day.volume.find((v) => v.currency === currency)?.amount ?? '0.00'),
    })),
    needsYouTotal: Number(overview.needsYouTotal),
  };
}
