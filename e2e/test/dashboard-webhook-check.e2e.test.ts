// Risk covered (issue 49 item 3): the endpoint checker unreachable from the dashboard, its verdicts
// or explanations lost on the way to the page, the page failing accessibility, or the check offered
// for a Live endpoint. Real platform, dashboard, Chromium and local endpoints.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { bodyOf } from './e2e-helpers.ts';
import { seriousViolations, startDashboardHarness, walk, type DashboardHarness, type DashboardMerchant } from './dashboard-harness.ts';
import { naiveEndpoint, sdkEndpoint, type TestEndpoint } from './webhook-check-receivers.ts';

let h: DashboardHarness;
let shop: DashboardMerchant;
const endpoints: TestEndpoint[] = [];

beforeAll(async () => {
  // A generous answer timeout: good endpoints on a loaded machine must not read as slow.
  h = await startDashboardHarness('webhook-check', { webhooks: { WEBHOOKS_DELIVERY_TIMEOUT: '4s' } });
  shop = await h.merchant();
}, 120_000);
afterAll(async () => {
  for (const endpoint of endpoints) endpoint.close();
  await h?.stop();
});

/** Registers the endpoint through the API (the dashboard's own form is dashboard-developers' test). */
async function registered(endpoint: TestEndpoint, key: string): Promise<string> {
  endpoints.push(endpoint);
  const created = await bodyOf(await h.platform.request('POST', '/v1/webhook_endpoints', { key, body: { url: endpoint.url } }));
  endpoint.secret = created['secret'] as string;
  return created['id'] as string;
}

it('checks a Test endpoint from its page: a naive one 4/6 with the misses explained, the SDK one 6/6', async () => {
  const naive = await registered(await naiveEndpoint(), shop.testKey);
  const good = await registered(await sdkEndpoint(), shop.testKey);
  const page = await h.signedIn(shop);
  await walk('webhook-check', page, async () => {
    await page.goto(`/dashboard/test/developers/endpoints/${naive}`);
    await page.getByRole('button', { name: 'Check endpoint' }).click();
    await page.getByRole('heading', { name: 'Endpoint check: 4/6' }).waitFor({ timeout: 60_000 });
    expect(await seriousViolations(page)).toEqual([]);
    const forged = page.locator('#check-invalid_signature');
    await expect(forged.textContent()).resolves.toMatch(/Rejects a wrong signature\s*failed\s*4xx\s*HTTP 200/);
    await expect(forged.textContent()).resolves.toContain('docs/webhooks.md#check-invalid-signature');
    await expect(page.locator('#check-stale_timestamp').textContent()).resolves.toContain('failed');
    await expect(page.locator('#check-valid_signature').textContent()).resolves.toContain('passed');

    await page.goto(`/dashboard/test/developers/endpoints/${good}`);
    await page.getByRole('button', { name: 'Check endpoint' }).click();
    await page.getByRole('heading', { name: 'Endpoint check: 6/6' }).waitFor({ timeout: 60_000 });
    await expect(page.locator('tbody .status-failed').count()).resolves.toBe(0);
  });
});

it('offers no check on a Live endpoint', async () => {
  const live = await bodyOf(
    await h.platform.request('POST', '/v1/webhook_endpoints', { key: shop.liveKey, body: { url: 'https://127.0.0.1:9/webhooks' } }),
  );
  const page = await h.signedIn(shop);
  await page.goto(`/dashboard/live/developers/endpoints/${live['id'] as string}`);
  await page.getByRole('heading', { name: 'Webhook endpoint' }).waitFor();
  await expect(page.getByRole('button', { name: 'Send ping' }).count()).resolves.toBe(1);
  await expect(page.getByRole('button', { name: 'Check endpoint' }).count()).resolves.toBe(0);
});
