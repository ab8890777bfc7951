import { Decimal } from '@hc/money';

/**
 * A bar chart drawn on the server as SVG geometry (docs/adr/0058): the page needs no script and no
 * chart library, and the CSP stays strict (presentation attributes, classes from the stylesheet). The
 * values stay decimal strings for every word shown; only the bar heights become pixels.
 */
export interface ChartBar {
  /** The axis label ("03-08", "paid"), empty where labels would crowd. */
  readonly tick: string;
  /** The category in full ("2026-03-08", "paid"). */
  readonly label: string;
  readonly value: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** The centre of the bar, for its labels. */
  readonly middle: number;
  /** Printed above the bar when there is room (few bars). */
  readonly showValue: boolean;
  /** A class for the bar's colour (bar-paid, …), or ''. */
  readonly tone: string;
}

export interface BarChart {
  readonly width: number;
  readonly height: number;
  /** y of the axis line; tick labels sit under it. */
  readonly baseline: number;
  readonly max: string;
  readonly bars: readonly ChartBar[];
}

const WIDTH = 640;
const HEIGHT = 220;
const TOP = 24;
const BASELINE = 190;
const SIDE = 8;
/** At most this many tick labels: a 30-day chart labels every third day. */
const MAX_TICKS = 10;
const MAX_VALUES_SHOWN = 10;

export interface ChartEntry {
  readonly label: string;
  readonly tick?: string;
  readonly value: string;
  readonly tone?: string;
}

export function barChart(entries: readonly ChartEntry[]): BarChart {
  const max = entries.reduce((top, entry) => Decimal.max(top, new Decimal(entry.value)), new Decimal(0));
  const slot = (WIDTH - 2 * SIDE) / Math.max(entries.length, 1);
  const every = Math.ceil(entries.length / MAX_TICKS);
  const plot = new Decimal(BASELINE - TOP);
  const bars = entries.map((entry, i) => {
    // A zero max draws no bars; a non-zero value always shows at least a sliver.
    const scaled = max.isZero() ? 0 : plot.times(entry.value).dividedBy(max).toDecimalPlaces(1).toNumber();
    const height = new Decimal(entry.value).isZero() ? 0 : Math.max(scaled, 1);
    const x = round(SIDE + i * slot + slot * 0.15);
    const width = round(slot * 0.7);
    return {
      tick: i % every === 0 ? (entry.tick ?? entry.label) : '',
      label: entry.label,
      value: entry.value,
      x,
      y: round(BASELINE - height),
      width,
      height,
      middle: round(x + width / 2),
      showValue: entries.length <= MAX_VALUES_SHOWN,
      tone: entry.tone ?? '',
    };
  });
  return { width: WIDTH, height: HEIGHT, baseline: BASELINE, max: max.toString(), bars };
}

const round = (value: number): number => Math.round(value * 10) / 10;
