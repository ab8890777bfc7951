// Risk covered: the dashboard's payments area hiding or mixing up payments (filters, search, paging),
// another account's or mode's payment reachable by changing the URL, or "Accept as paid" acting
// without a confirmation, on the wrong payment, or without the API then reading `paid`.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { eventually } from '@hc/test-kit';
import {
  apiPayment,
  docScreenshot,
  seriousViolations,
  startDashboardHarness,
  walk,
  type DashboardHarness,
  type DashboardMerchant,
} from './dashboard-harness.ts';

// Browser walks of several pages: a minute and a half each on a machine running the whole suite.
jest.setTimeout(90_000);

let h: DashboardHarness;
let shop: DashboardMerchant;
let other: DashboardMerchant;

const payment = (key: string, fields: Record<string, unknown>, outcome?: 'paid' | 'underpaid' | 'failed'): Promise<string> =>
  apiPayment(h.platform, key, fields, outcome);

async function apiStatus(key: string, id: string): Promise<string> {
  const read = await h.platform.request('GET', `/v1/payments/${id}`, { key });
  return ((await read.json()) as { status: string }).status;
}

beforeAll(async () => {
  h = await startDashboardHarness('payments');
  [shop, other] = await Promise.all([h.merchant(), h.merchant()]);
}, 120_000);
afterAll(async () => {
  await h?.stop();
});

describe('payments', () => {
  it('lists newest first, filters by status, finds by reference or email, and pages', async () => {
    const a = await payment(shop.testKey, { reference: 'ORD-A1', customer_email: 'ann@buyer.example', description: 'Red mug' }, 'paid');
    const b = await payment(shop.testKey, { reference: 'ORD-B2', customer_email: 'bob@buyer.example', description: 'Green mug' });
    const c = await payment(shop.testKey, { reference: 'ORD-C3', description: 'Tea pot' }, 'failed');
    const page = await h.signedIn(shop);
    const shown = async () => page.locator('tbody code').allTextContents();
    await walk('payments-list', page, async () => {
      await page.goto('/dashboard/test/payments');
      expect(await shown()).toEqual([c, b, a]);
      expect(await seriousViolations(page)).toEqual([]);
      await docScreenshot(page, 'dashboard-payments');

      await page.getByLabel('Status').selectOption('paid');
      await page.getByRole('button', { name: 'Filter' }).click();
      expect(await shown()).toEqual([a]);
      await page.getByRole('link', { name: 'Clear' }).click();
      await page.getByLabel('Reference or email').fill('ORD-B2');
      await page.getByRole('button', { name: 'Filter' }).click();
      expect(await shown()).toEqual([b]);
      await page.getByLabel('Reference or email').fill('ANN@buyer.example');
      await page.getByRole('button', { name: 'Filter' }).click();
      expect(await shown()).toEqual([a]);

      await page.goto('/dashboard/test/payments?limit=2');
      expect(await shown()).toEqual([c, b]);
      await page.getByRole('link', { name: 'Older payments' }).click();
      expect(await shown()).toEqual([a]);
      await expect(page.getByRole('link', { name: 'Older payments' }).count()).resolves.toBe(0);
    });
  });

  it('shows a held payment with its settlement, events and timeline, and Accept as paid (confirmed) makes the API read paid', async () => {
    const held = await payment(shop.testKey, { reference: 'ORD-H1', description: 'Held mug' }, 'underpaid');
    expect(await apiStatus(shop.testKey, held)).toBe('held');
    const page = await h.signedIn(shop);
    await walk('payment-accept', page, async () => {
      // The webhook log records the events as they flow: wait for the hold to be there.
      await eventually(
        async () => {
          await page.goto(`/dashboard/test/payments/${held}`);
          return page.getByRole('link', { name: 'payment.held' }).count();
        },
        (count) => count === 1,
      );
      await page.getByRole('heading', { name: 'Held for review' }).waitFor();
      await expect(page.getByText('Transaction in').isVisible()).resolves.toBe(true);
      await expect(page.locator('ol.timeline li').first().textContent()).resolves.toContain('created');
      expect(await seriousViolations(page)).toEqual([]);
      await docScreenshot(page, 'dashboard-payment');

      await page.getByRole('link', { name: 'Accept as paid…' }).click();
      await page.getByRole('heading', { name: 'Accept this payment as paid?' }).waitFor();
      expect(await apiStatus(shop.testKey, held)).toBe('held');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Accept as paid' }).click();
      await page.getByText('Accepted as paid.').waitFor();
      await expect(page.locator('h1 .status').textContent()).resolves.toBe('paid');
    });
    expect(await apiStatus(shop.testKey, held)).toBe('paid');

    // Once paid, the confirmation page is not offered again, and a repeated post changes nothing.
    await page.goto(`/dashboard/test/payments/${held}/accept`);
    await page.getByText('Only a held payment').waitFor();
  });

  it('another account’s payment, or a Test payment under /live/, is a 404 — to read and to accept', async () => {
    const theirs = await payment(other.testKey, { description: 'Their mug' }, 'underpaid');
    const mine = await payment(shop.testKey, { description: 'My mug' }, 'underpaid');
    const page = await h.signedIn(shop);
    await walk('payments-isolation', page, async () => {
      expect((await page.goto(`/dashboard/test/payments/${theirs}`))?.status()).toBe(404);
      expect((await page.goto(`/dashboard/test/payments/${theirs}/accept`))?.status()).toBe(404);
      expect((await page.goto(`/dashboard/live/payments/${mine}`))?.status()).toBe(404);
      expect((await page.goto('/dashboard/test/payments/pay_nonsense'))?.status()).toBe(404);
      await page.goto('/dashboard/test/payments');
      await expect(page.locator('tbody code').allTextContents()).resolves.not.toContain(theirs);
    });
    const [cookie] = await page.context().cookies();
    await page.goto('/dashboard/test/settings');
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const forged = await fetch(`${h.url}/dashboard/test/payments/${theirs}/accept`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: `hc_dashboard=${cookie!.value}`, origin: h.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf }).toString(),
    });
    expect(forged.status).toBe(404);
    expect(await apiStatus(other.testKey, theirs)).toBe('held');
  });
});
