// Risk covered: an Overview that tells the merchant something other than what happened — counts or a
// chart that do not match the payments made, a period chooser that does not change the period, a held
// payment waiting for them that is not listed, a chart only a script or a sighted reader can use
// (docs/adr/0058). Real platform (checkout computes the figures over gRPC), dashboard and Chromium.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { Decimal } from '@hc/money';
import {
  apiPayment,
  docScreenshot,
  seriousViolations,
  startDashboardHarness,
  walk,
  type DashboardHarness,
  type DashboardMerchant,
} from './dashboard-harness.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
let h: DashboardHarness;
let owner: DashboardMerchant;
const made: Record<string, string> = {};
let today = '';

beforeAll(async () => {
  h = await startDashboardHarness('overview');
  owner = await h.merchant();
  // One left open a day and more, so it reads expired (its day is before today).
  made['expired'] = await apiPayment(h.platform, owner.testKey, { description: 'Forgotten cart' });
  h.platform.clock.advance(DAY_MS + 60 * 60 * 1000);
  today = h.platform.clock.now().toISOString().slice(0, 10);
  made['paidA'] = await apiPayment(h.platform, owner.testKey, { amount: '19.90' }, 'paid');
  made['paidB'] = await apiPayment(h.platform, owner.testKey, { amount: '5.05', description: 'Tea towel' }, 'paid');
  made['held'] = await apiPayment(h.platform, owner.testKey, { amount: '12.00', description: 'Short-paid lamp' }, 'underpaid');
  made['failed'] = await apiPayment(h.platform, owner.testKey, { description: 'Declined mug' }, 'failed');
  // Another merchant's payment must not show.
  const other = await h.merchant();
  await apiPayment(h.platform, other.testKey, { amount: '99.00' }, 'paid');
}, 180_000);
afterAll(async () => {
  await h?.stop();
});

const count = (page: Page, status: string) => page.locator(`#counts dd[data-status="${status}"]`).innerText();

/** The chart's bars as drawn: label → value (the numbers the SVG carries for each bar). */
async function bars(page: Page, chart: string): Promise<Map<string, string>> {
  const groups = page.locator(`svg#${chart} g.bar-group`);
  const entries: [string, string][] = [];
  for (let i = 0; i < (await groups.count()); i += 1) {
    const g = groups.nth(i);
    entries.push([(await g.getAttribute('data-label'))!, (await g.getAttribute('data-value'))!]);
  }
  return new Map(entries);
}

describe('overview', () => {
  it('shows the counts, volume and charts of the payments made, and the held payment that needs the merchant', async () => {
    const page = await h.signedIn(owner, { viewport: { width: 1280, height: 900 } });
    await walk('overview-7d', page, async () => {
      // Signing in lands on the Overview (the home), last 7 days.
      expect(new URL(page.url()).pathname).toBe('/dashboard/test/overview');
      expect(await page.getByRole('link', { name: 'Last 7 days' }).getAttribute('aria-current')).toBe('page');
      expect([await count(page, 'paid'), await count(page, 'held'), await count(page, 'failed'), await count(page, 'expired')]).toEqual([
        '2',
        '1',
        '1',
        '1',
      ]);
      expect(await page.locator('#money').innerText()).toContain('24.95 USD');

      const volume = await bars(page, 'volume-USD');
      expect(volume.size).toBe(7);
      expect(volume.get(today)).toBe('24.95');
      const sum = [...volume.values()].reduce((total, value) => total.plus(value), new Decimal(0));
      expect(sum.toFixed(2)).toBe('24.95');
      expect(Object.fromEntries(await bars(page, 'by-status'))).toEqual({ paid: '2', held: '1', failed: '1', expired: '1', open: '0' });
      // Accessible: an image with its name and description, the same numbers in the day table.
      const chart = page.getByRole('img', { name: 'Paid volume per day in USD' });
      expect(await chart.count()).toBe(1);
      expect(await page.locator('svg#volume-USD desc').textContent()).toContain('24.95 USD');
      expect(await page.locator('#days tbody tr').first().innerText()).toMatch(
        new RegExp(`^${today}\\s+2\\s+1\\s+1\\s+0\\s+0\\s+24\\.95$`),
      );

      // Needs you: the held payment, linked to its page and its acceptance.
      await expect(page.getByRole('link', { name: 'Short-paid lamp' }).getAttribute('href')).resolves.toBe(
        `/dashboard/test/payments/${made['held']}`,
      );
      expect(await page.getByRole('link', { name: `Review and accept ${made['held']}` }).count()).toBe(1);
      await docScreenshot(page, 'dashboard-overview-desktop');
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  it('changes the period with a link: today leaves out the payment that expired yesterday', async () => {
    const page = await h.signedIn(owner, { viewport: { width: 1280, height: 900 } });
    await walk('overview-today', page, async () => {
      await Promise.all([page.waitForURL(/period=today$/), page.getByRole('link', { name: 'Today' }).click()]);
      expect([await count(page, 'paid'), await count(page, 'expired')]).toEqual(['2', '0']);
      expect([...(await bars(page, 'volume-USD')).entries()]).toEqual([[today, '24.95']]);
      await page.goto('/dashboard/test/overview?period=30d');
      expect((await bars(page, 'volume-USD')).size).toBe(30);
      expect(await count(page, 'expired')).toBe('1');
    });
  });

  it('reads the same without JavaScript, and Live mode shows none of the Test payments', async () => {
    const page = await h.signedIn(owner, { javaScriptEnabled: false });
    await walk('overview-no-script', page, async () => {
      await page.goto('/dashboard/test/overview');
      expect(await count(page, 'paid')).toBe('2');
      expect((await bars(page, 'volume-USD')).get(today)).toBe('24.95');
      await page.goto('/dashboard/live/overview');
      expect(await count(page, 'paid')).toBe('0');
      expect(await page.locator('svg#volume-USD').count()).toBe(0);
      expect(await page.getByText('Nothing needs you').count()).toBe(1);
    });
  });
});
