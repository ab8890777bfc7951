import { describe, expect, it } from '@jest/globals';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { periodOf, StatementTotals, statementRow, statementRows } from './statement.ts';

const paid = (id: string, valueCoin: string, merchantReceived: string, wallet = '0xw'): Payment =>
  ({
    id,
    status: 'paid',
    amount: valueCoin,
    currency: 'usd',
    description: 'x',
    createdAt: 1_000n,
    paidAt: 2_000n,
    mode: 'live',
    coin: 'USDC',
    valueCoin,
    merchantReceived,
    txidIn: `in_${id}`,
    txidOut: `out_${id}`,
    payoutWallet: wallet,
  }) as Payment;

describe('the settlement statement', () => {
  it('adds up: per coin and wallet, arrived = fee + forwarded, in exact decimals', () => {
    const totals = new StatementTotals();
    for (const p of [paid('a', '0.1', '0.098'), paid('b', '0.2', '0.196'), paid('c', '10', '9.8', '0xv')])
      totals.add(statementRow(p, p.amount));
    expect(totals.rows()).toEqual([
      expect.objectContaining({
        line: 'total',
        coin: 'USDC',
        payout_wallet: '0xv',
        usd_value: '10.00',
        arrived: '10',
        fee: '0.2',
        forwarded: '9.8',
      }),
      expect.objectContaining({
        line: 'total',
        coin: 'USDC',
        payout_wallet: '0xw',
        usd_value: '0.30',
        arrived: '0.3',
        fee: '0.006',
        forwarded: '0.294',
      }),
    ]);
  });

  it('a line carries the USD value settlement locked, whatever the currency; the totals sum them', async () => {
    const eur = { ...paid('e', '21.55', '21.1190'), amount: '20.00', currency: 'eur' };
    const rows = [];
    for await (const row of statementRows(
      (async function* () {
        yield { exported: eur, usdValue: '21.60' };
        yield { exported: paid('u', '5', '4.9'), usdValue: '5.00' };
      })(),
    ))
      rows.push(row);
    expect(rows[0]).toMatchObject({ payment: 'e', amount: '20.00', currency: 'eur', usd_value: '21.60' });
    expect(rows[2]).toMatchObject({ line: 'total', payment: '2 payments', usd_value: '26.60', arrived: '26.55', forwarded: '26.019' });
  });

  it('takes whole UTC days, both included, and refuses a period that is not one', () => {
    expect(periodOf('2026-11-01', '2026-11-30')).toEqual({
      from: new Date('2026-11-01T00:00:00Z'),
      until: new Date('2026-12-01T00:00:00Z'),
    });
    expect(periodOf('2026-02-30', '2026-03-01')).toMatchObject({ field: 'from' });
    expect(periodOf('2026-11-02', '2026-11-01')).toMatchObject({ field: 'to' });
    expect(periodOf('2025-01-01', '2026-11-01')).toMatchObject({ field: 'to' });
  });
});
