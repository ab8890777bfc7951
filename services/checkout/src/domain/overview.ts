import { ApiError } from '@hc/errors';
import { Decimal } from '@hc/money';
import type { Payment } from './payment.ts';

/** The Overview's periods are whole UTC days ending today; longer than 90 would outgrow one page's chart. */
export const MAX_OVERVIEW_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface OverviewPeriod {
  readonly start: Date;
  /** Exclusive: the next UTC midnight after `now`. */
  readonly end: Date;
  /** YYYY-MM-DD of every day, oldest first. */
  readonly dates: readonly string[];
}

export interface StatusCounts {
  paid: number;
  held: number;
  failed: number;
  expired: number;
  open: number;
}

export interface MoneyTotal {
  readonly currency: string;
  /** Decimal string. */
  readonly amount: string;
}

export interface OverviewDay {
  readonly date: string;
  readonly volume: readonly MoneyTotal[];
  readonly counts: StatusCounts;
}

export interface Overview {
  readonly period: OverviewPeriod;
  readonly counts: StatusCounts;
  readonly volume: readonly MoneyTotal[];
  readonly received: readonly MoneyTotal[];
  readonly days: readonly OverviewDay[];
  readonly needsYou: readonly Payment[];
  readonly needsYouTotal: number;
}

/** What the store reads: counts per day and status (expiry already applied), sums per day and currency. */
export interface OverviewRows {
  readonly counts: readonly { readonly day: string; readonly status: string; readonly count: number }[];
  readonly volumes: readonly { readonly day: string; readonly currency: string; readonly amount: string }[];
  readonly received: readonly MoneyTotal[];
  readonly needsYou: readonly Payment[];
  readonly needsYouTotal: number;
}

export function overviewPeriod(days: number, now: Date): OverviewPeriod {
  if (!Number.isInteger(days) || days < 1 || days > MAX_OVERVIEW_DAYS)
    throw new ApiError('invalid_request', `The period is 1 to ${MAX_OVERVIEW_DAYS} days.`, 'days');
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS);
  const start = new Date(end.getTime() - days * DAY_MS);
  const dates = Array.from({ length: days }, (_, i) => new Date(start.getTime() + i * DAY_MS).toISOString().slice(0, 10));
  return { start, end, dates };
}

const emptyCounts = (): StatusCounts => ({ paid: 0, held: 0, failed: 0, expired: 0, open: 0 });

function countInto(counts: StatusCounts, status: string, count: number): void {
  // open and pending are both "may still be paid"; the Overview does not tell them apart.
  const key = status === 'pending' ? 'open' : status;
  if (key in counts) counts[key as keyof StatusCounts] += count;
}

/** Sums per currency with decimal.js (exact), sorted by currency so the page is stable. */
function totals(entries: readonly MoneyTotal[]): MoneyTotal[] {
  const sums = new Map<string, Decimal>();
  for (const { currency, amount } of entries) sums.set(currency, (sums.get(currency) ?? new Decimal(0)).plus(amount));
  return [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, sum]) => ({ currency, amount: sum.toFixed(2) }));
}

/** Every day of the period (empty days too) and the period's totals, from the store's grouped rows. */
export function buildOverview(period: OverviewPeriod, rows: OverviewRows): Overview {
  const counts = emptyCounts();
  const days = period.dates.map((date) => {
    const dayCounts = emptyCounts();
    for (const row of rows.counts) if (row.day === date) countInto(dayCounts, row.status, row.count);
    for (const key of Object.keys(counts) as (keyof StatusCounts)[]) counts[key] += dayCounts[key];
    return { date, counts: dayCounts, volume: totals(rows.volumes.filter((row) => row.day === date)) };
  });
  return {
    period,
    counts,
    volume: totals(rows.volumes),
    received: [...rows.received].sort((a, b) => a.currency.localeCompare(b.currency)),
    days,
    needsYou: rows.needsYou,
    needsYouTotal: rows.needsYouTotal,
  };
}
