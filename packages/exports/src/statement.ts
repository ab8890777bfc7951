import { unixSecondsBig } from '@hc/conversions';
import { Decimal } from '@hc/money';
import { exportedPayment, feeInCoin, isoOfWholeSecond, type ExportAnswer, type ExportedPayment } from './payment-export.ts';

/**
 * The settlement statement of a period (docs/adr/0057): each payment paid in it (by the moment it was
 * paid, not created) with what was asked, its USD value as settlement locked it at start, what arrived
 * in which coin, the fee kept and what was forwarded to which payout wallet, then totals per coin and
 * wallet that add up: arrived = fee + forwarded for every line, so for every total too, the forwarded
 * totals are what reached the payout wallets, and the USD total is the sum of the lines' USD values.
 * Decimal arithmetic only.
 */
export const STATEMENT_COLUMNS = [
  'line',
  'payment',
  'paid_at',
  'amount',
  'currency',
  'usd_value',
  'coin',
  'arrived',
  'fee',
  'forwarded',
  'txid_in',
  'txid_out',
  'payout_wallet',
] as const;
export type StatementRow = Record<(typeof STATEMENT_COLUMNS)[number], string>;

/** A statement's period: whole UTC days, `from` included, `to` included. */
export interface Period {
  readonly from: Date;
  /** The first instant after the period. */
  readonly until: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function day(text: string): Date | null {
  const match = DATE.exec(text);
  if (!match) return null;
  const at = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return at.toISOString().startsWith(text) ? at : null;
}

/** The period of two YYYY-MM-DD dates (UTC, both included, at most 366 days), or why not. */
export function periodOf(from: string, to: string): Period | { problem: string; field: 'from' | 'to' } {
  const start = day(from);
  if (!start) return { problem: 'Give the first day as YYYY-MM-DD.', field: 'from' };
  const end = day(to);
  if (!end) return { problem: 'Give the last day as YYYY-MM-DD.', field: 'to' };
  if (end < start) return { problem: 'The last day is before the first.', field: 'to' };
  if (end.getTime() - start.getTime() > 366 * DAY_MS) return { problem: 'A statement covers at most 366 days.', field: 'to' };
  return { from: start, until: new Date(end.getTime() + DAY_MS) };
}

/** Running totals per coin and payout wallet, as the lines go by (a few keys, whatever the lines). */
export class StatementTotals {
  private readonly sums = new Map<
    string,
    { coin: string; wallet: string; count: number; usd: Decimal; arrived: Decimal; fee: Decimal; forwarded: Decimal }
  >();

  add(row: StatementRow): void {
    const key = `${row.coin}\u0000${row.payout_wallet}`;
    const sum = this.sums.get(key) ?? {
      coin: row.coin,
      wallet: row.payout_wallet,
      count: 0,
      usd: new Decimal(0),
      arrived: new Decimal(0),
      fee: new Decimal(0),
      forwarded: new Decimal(0),
    };
    sum.count += 1;
    sum.usd = sum.usd.plus(row.usd_value || 0);
    sum.arrived = sum.arrived.plus(row.arrived || 0);
    sum.fee = sum.fee.plus(row.fee || 0);
    sum.forwarded = sum.forwarded.plus(row.forwarded || 0);
    this.sums.set(key, sum);
  }

  /** One `total` row per coin and wallet, in a stable order. */
  rows(): StatementRow[] {
    return [...this.sums.values()]
      .sort((a, b) => (a.coin + a.wallet).localeCompare(b.coin + b.wallet))
      .map((sum) => ({
        line: 'total',
        payment: `${sum.count} payments`,
        paid_at: '',
        amount: '',
        currency: '',
        usd_value: sum.usd.toFixed(2),
        coin: sum.coin,
        arrived: sum.arrived.toFixed(),
        fee: sum.fee.toFixed(),
        forwarded: sum.forwarded.toFixed(),
        txid_in: '',
        txid_out: '',
        payout_wallet: sum.wallet,
      }));
  }
}

/** One line: a paid payment and the USD value settlement locked for it (checkout's export carries it). */
export function statementRow(payment: ExportedPayment, usdValue: string | undefined): StatementRow {
  return {
    line: 'payment',
    payment: payment.id,
    paid_at: isoOfWholeSecond(payment.paidAt),
    amount: payment.amount,
    currency: payment.currency,
    usd_value: usdValue ?? '',
    coin: payment.coin ?? '',
    arrived: payment.valueCoin ?? '',
    fee: feeInCoin(payment.valueCoin, payment.merchantReceived),
    forwarded: payment.merchantReceived ?? '',
    txid_in: payment.txidIn ?? '',
    txid_out: payment.txidOut ?? '',
    payout_wallet: payment.payoutWallet ?? '',
  };
}

/** What checkout's ExportPayments asks for a statement: the paid payments of the period, by paid_at. */
export function statementRequest(period: Period): { paidGte: bigint; paidLt: bigint } {
  return { paidGte: unixSecondsBig(period.from), paidLt: unixSecondsBig(period.until) };
}

/** The statement's rows from checkout's stream: each payment's line as it comes, then the totals. */
export async function* statementRows(exported: AsyncIterable<ExportAnswer>): AsyncGenerator<StatementRow> {
  const totals = new StatementTotals();
  for await (const answer of exported) {
    const payment = exportedPayment(answer);
    if (!payment) continue;
    const row = statementRow(payment, answer.usdValue);
    totals.add(row);
    yield row;
  }
  yield* totals.rows();
}
