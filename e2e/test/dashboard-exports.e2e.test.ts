// Risk covered: exports an accountant cannot trust — a CSV that leaves out or alters payments the
// list shows, or ignores its filters; a statement whose lines and totals do not add up to what reached
// the payout wallet; a described payment that runs as a spreadsheet formula (docs/adr/0057). Real
// platform (checkout streams the rows over gRPC), dashboard and Chromium; compared with the API.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { openTestPool } from '@hc/test-kit';
import { Decimal } from '@hc/money';
import type { Page } from 'playwright-core';
import {
  apiPayment,
  docScreenshot,
  seriousViolations,
  startDashboardHarness,
  walk,
  type DashboardHarness,
  type DashboardMerchant,
} from './dashboard-harness.ts';

let h: DashboardHarness;
let owner: DashboardMerchant;
const made: Record<string, string> = {};
beforeAll(async () => {
  h = await startDashboardHarness('exports');
  owner = await h.merchant();
  made['paidA'] = await apiPayment(h.platform, owner.testKey, { reference: 'order-1', amount: '19.90' }, 'paid');
  made['paidB'] = await apiPayment(
    h.platform,
    owner.testKey,
    { reference: 'order-2', amount: '5.05', description: '=HYPERLINK("http://x")' },
    'paid',
  );
  made['failed'] = await apiPayment(h.platform, owner.testKey, { reference: 'order-3' }, 'failed');
  made['open'] = await apiPayment(h.platform, owner.testKey, { reference: 'order-4' });
}, 180_000);
afterAll(async () => {
  await h?.stop();
});

type Row = Record<string, string>;

/** Follows a download link or form and parses the file it gives. */
async function download(page: Page, start: () => Promise<void>): Promise<Row[]> {
  const [file] = await Promise.all([page.waitForEvent('download'), start()]);
  const text = await readFile((await file.path())!, 'utf8');
  return parse(text, { columns: true, bom: true, skip_empty_lines: true }) as Row[];
}

async function apiPaymentObject(id: string): Promise<Record<string, unknown> & { settlement: Record<string, string | null> }> {
  const answer = await h.platform.request('GET', `/v1/payments/${id}`, { key: owner.testKey });
  expect(answer.status).toBe(200);
  return (await answer.json()) as Record<string, unknown> & { settlement: Record<string, string | null> };
}

describe('exports', () => {
  it('the CSV of a filtered list has exactly the payments the filter matches, as the API shows them', async () => {
    const page = await h.signedIn(owner, { viewport: { width: 1280, height: 900 } });
    await walk('export-payments', page, async () => {
      await page.goto('/dashboard/test/payments?status=paid');
      await docScreenshot(page, 'dashboard-payments-desktop');
      expect(await seriousViolations(page)).toEqual([]);
      const rows = await download(page, () => page.getByRole('link', { name: /Download these payments as CSV/ }).click());
      expect(rows.map((r) => r['id']).sort()).toEqual([made['paidA'], made['paidB']].sort());
      for (const row of rows) {
        const api = await apiPaymentObject(row['id']!);
        expect(row).toMatchObject({
          status: api['status'],
          amount: api['amount'],
          currency: api['currency'],
          reference: api['reference'],
          coin: api.settlement['coin'] ?? '',
          value_coin: api.settlement['value_coin'] ?? '',
          merchant_received: api.settlement['merchant_received'] ?? '',
          txid_in: api.settlement['txid_in'] ?? '',
          txid_out: api.settlement['txid_out'] ?? '',
          payout_wallet: api.settlement['payout_wallet'] ?? '',
          created: new Date(Number(api['created']) * 1000).toISOString(),
        });
        expect(new Decimal(row['value_coin']!).minus(row['merchant_received']!).toFixed()).toBe(row['fee_coin']);
      }
      // Typed text never runs as a formula in a spreadsheet.
      expect(rows.find((r) => r['id'] === made['paidB'])!['description']).toBe(`'=HYPERLINK("http://x")`);

      await page.goto('/dashboard/test/payments?q=order-3');
      const one = await download(page, () => page.getByRole('link', { name: /Download these payments as CSV/ }).click());
      expect(one.map((r) => [r['id'], r['status']])).toEqual([[made['failed'], 'failed']]);
      await page.goto('/dashboard/test/payments');
      const all = await download(page, () => page.getByRole('link', { name: /Download all payments as CSV/ }).click());
      expect(all.map((r) => r['id']).sort()).toEqual(Object.values(made).sort());
    });
  }, 90_000);

  it('the statement of a period lists each paid payment, and its totals add up to what reached the payout wallet', async () => {
    const page = await h.signedIn(owner, { viewport: { width: 1280, height: 900 } });
    const today = h.platform.clock.now().toISOString().slice(0, 10);
    await walk('export-statement', page, async () => {
      await page.goto('/dashboard/test/payments');
      await page.getByLabel('First day (UTC)').fill(today);
      await page.getByLabel('Last day (UTC)').fill(today);
      const rows = await download(page, () => page.getByRole('button', { name: 'Download settlement statement' }).click());
      const lines = rows.filter((r) => r['line'] === 'payment');
      const totals = rows.filter((r) => r['line'] === 'total');
      expect(lines.map((r) => r['payment']).sort()).toEqual([made['paidA'], made['paidB']].sort());
      let reachedWallet = new Decimal(0);
      for (const line of lines) {
        const api = await apiPaymentObject(line['payment']!);
        expect(line['forwarded']).toBe(api.settlement['merchant_received']);
        expect(line['arrived']).toBe(api.settlement['value_coin']);
        expect(line['usd_value']).toBe(api['amount']);
        expect(new Decimal(line['fee']!).plus(line['forwarded']!).toFixed()).toBe(new Decimal(line['arrived']!).toFixed());
        reachedWallet = reachedWallet.plus(api.settlement['merchant_received']!);
      }
      const sum = (column: string) => totals.reduce((acc, r) => acc.plus(r[column]!), new Decimal(0));
      expect(sum('forwarded').toFixed()).toBe(reachedWallet.toFixed());
      expect(sum('fee').plus(sum('forwarded')).toFixed()).toBe(sum('arrived').toFixed());
      for (const total of totals) expect(total['payout_wallet']).toBe(lines[0]!['payout_wallet']);

      // A period that is not one is a page saying so, not a file.
      await page.goto('/dashboard/test/statement.csv?from=2026-02-30&to=2026-03-01');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('No such period');
    });
  }, 90_000);

  it('the operator CLI writes the same CSV and statement to stdout', async () => {
    const today = h.platform.clock.now().toISOString().slice(0, 10);
    const exported = await h.platform.operator('payments', 'export', owner.accountId, '--mode', 'test', '--status', 'paid');
    expect(exported.code).toBe(0);
    const rows = parse(exported.stdout, { columns: true, bom: true }) as Row[];
    expect(rows.map((r) => r['id']).sort()).toEqual([made['paidA'], made['paidB']].sort());
    const statement = await h.platform.operator('payments', 'statement', owner.accountId, '--mode', 'test', '--from', today, '--to', today);
    expect(statement.code).toBe(0);
    const lines = parse(statement.stdout, { columns: true, bom: true }) as Row[];
    expect(lines.filter((r) => r['line'] === 'payment')).toHaveLength(2);
    expect(lines.filter((r) => r['line'] === 'total')).toHaveLength(1);
    const refused = await h.platform.operator(
      'payments',
      'statement',
      owner.accountId,
      '--mode',
      'test',
      '--from',
      '2026-02-30',
      '--to',
      today,
    );
    expect(refused.code).toBe(2);
  }, 60_000);

  it('each export is in the audit log', async () => {
    const page = await h.signedIn(owner);
    await page.goto('/dashboard/test/audit?action=export.');
    const log = (await page.getByRole('table').textContent()) ?? '';
    expect(log).toContain('export.payments');
    expect(log).toContain('export.statement');
  }, 60_000);

  // Last: it moves the shared clock to tomorrow's midnight.
  it('a payment is on the statement of the UTC day it was paid, not created, with the USD value settlement locked (EUR)', async () => {
    const merchant = await h.merchant();
    const { clock } = h.platform;
    const day = (offset: number) =>
      new Date(Date.UTC(clock.now().getUTCFullYear(), clock.now().getUTCMonth(), clock.now().getUTCDate() + offset));
    const created = day(1);
    const paidDay = day(2);
    const ymd = (d: Date) => d.toISOString().slice(0, 10);
    clock.set(new Date(paidDay.getTime() - 30_000)); // 23:59:30 on the day it is created
    const id = await apiPayment(h.platform, merchant.testKey, { amount: '20.00', currency: 'eur', reference: 'eur-late' });
    expect(
      (await h.platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.testKey, body: { country: 'de' } })).status,
    ).toBe(200);
    clock.set(new Date(paidDay.getTime() + 30_000)); // 00:00:30 the next day
    expect(
      (await h.platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome: 'paid' } })).status,
    ).toBe(200);
    const api = (await (await h.platform.request('GET', `/v1/payments/${id}`, { key: merchant.testKey })).json()) as Record<
      string,
      unknown
    > & {
      settlement: Record<string, string>;
    };
    expect(api['status']).toBe('paid');
    expect(new Date(Number(api['created']) * 1000).toISOString().slice(0, 10)).toBe(ymd(created));
    expect(new Date(Number(api['paid_at']) * 1000).toISOString().slice(0, 10)).toBe(ymd(paidDay));

    // The day it was created has nothing of it; the day it was paid has it.
    const dayBefore = await h.platform.operator(
      'payments',
      'statement',
      merchant.accountId,
      '--mode',
      'test',
      '--from',
      ymd(created),
      '--to',
      ymd(created),
    );
    expect(dayBefore.code).toBe(0);
    expect((parse(dayBefore.stdout, { columns: true, bom: true }) as Row[]).filter((r) => r['line'] === 'payment')).toEqual([]);
    const page = await h.signedIn(merchant, { viewport: { width: 1280, height: 900 } });
    await walk('export-statement-paid-day', page, async () => {
      await page.goto('/dashboard/test/payments');
      await page.getByLabel('First day (UTC)').fill(ymd(paidDay));
      await page.getByLabel('Last day (UTC)').fill(ymd(paidDay));
      const rows = await download(page, () => page.getByRole('button', { name: 'Download settlement statement' }).click());
      const [line, ...rest] = rows;
      expect(rest.map((r) => r['line'])).toEqual(['total', 'signature']);
      // 20.00 EUR at the rate settlement locked at start (FX_RATES_USD: 1.08), as its own lock says.
      const settlementDb = openTestPool(h.platform.stack.settlementDatabaseUrl, 1);
      const lock = (await settlementDb.query('SELECT usd_value::text AS usd FROM settlement_locks WHERE payment_id = $1', [id]))
        .rows[0] as { usd: string };
      await settlementDb.end();
      expect(lock.usd).toBe('21.60');
      expect(line).toMatchObject({ payment: id, amount: '20.00', currency: api['currency'], usd_value: lock.usd });
      expect(line!['forwarded']).toBe(api.settlement['merchant_received']);
      const total = rest[0]!;
      expect(total['usd_value']).toBe('21.60');
      expect(new Decimal(total['forwarded']!).eq(api.settlement['merchant_received']!)).toBe(true);
      expect(new Decimal(total['arrived']!).eq(api.settlement['value_coin']!)).toBe(true);
      expect(new Decimal(total['fee']!).plus(total['forwarded']!).toFixed()).toBe(new Decimal(total['arrived']!).toFixed());
    });
  }, 90_000);
});
