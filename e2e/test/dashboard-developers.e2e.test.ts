// Risk covered: the dashboard's Developers area handing out a key that does not work (or one that
// keeps working after revocation), showing a secret twice, an endpoint whose ping arrives unsigned or
// signed with another secret, a resend that never arrives, or another account's or mode's endpoints
// and events reachable by URL. Real platform, dashboard, Chromium and a local webhook receiver.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { eventually } from '@hc/test-kit';
import {
  docScreenshot,
  seriousViolations,
  startDashboardHarness,
  walk,
  type DashboardHarness,
  type DashboardMerchant,
} from './dashboard-harness.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from './e2e-helpers.ts';

let h: DashboardHarness;
let shop: DashboardMerchant;
let other: DashboardMerchant;
let receiver: WebhookReceiver;
let receiverUrl: string;
let delivered: ReceivedWebhook[];

beforeAll(async () => {
  h = await startDashboardHarness('developers');
  [shop, other] = await Promise.all([h.merchant(), h.merchant()]);
  receiver = await startWebhookReceiver<ReceivedWebhook['event']>();
  ({ url: receiverUrl, delivered } = receiver);
}, 120_000);
afterAll(async () => {
  receiver?.close();
  await h?.stop();
});

const deliveriesOf = (eventId: string) => delivered.filter((d) => d.event.id === eventId);

describe('API keys', () => {
  it('a key made in the dashboard is shown once and works on the API; revoked there, its next request is 401', async () => {
    const page = await h.signedIn(shop);
    let secret = '';
    await walk('keys', page, async () => {
      await page.goto('/dashboard/test/developers');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Label for a new key (optional)').fill('Shop server');
      await page.getByRole('button', { name: 'Create Test key' }).click();
      await page.getByRole('heading', { name: 'API key created' }).waitFor();
      secret = (await page.locator('#api-key-secret').textContent())!.trim();
      expect(secret).toMatch(/^sk_test_/);
      expect((await h.platform.request('GET', '/v1/payments', { key: secret })).status).toBe(200);

      await page.getByRole('link', { name: 'I have stored it' }).click();
      await page.waitForLoadState('load');
      // The secret is on no later page: only its hint.
      expect(await page.content()).not.toContain(secret);
      const hint = secret.slice(-4);
      const row = page.locator('tr', { hasText: 'Shop server' });
      await expect(row.textContent()).resolves.toContain(hint);
      await docScreenshot(page, 'dashboard-developers');
      await row.getByRole('link', { name: 'Revoke…' }).click();
      await page.getByRole('button', { name: 'Revoke key' }).click();
      await page.getByText('revoked: its very next request is refused').waitFor();
    });
    expect((await h.platform.request('GET', '/v1/payments', { key: secret })).status).toBe(401);
    // The merchant's other keys still work.
    expect((await h.platform.request('GET', '/v1/payments', { key: shop.testKey })).status).toBe(200);
  });
});

describe('webhook endpoints and events', () => {
  let endpointPath = '';
  let secret = '';

  it('an endpoint added in the dashboard receives a ping signed with the secret shown once', async () => {
    const page = await h.signedIn(shop);
    await walk('endpoint', page, async () => {
      await page.goto('/dashboard/test/developers/endpoints/new');
      await page.getByLabel('URL').fill('not a url');
      await page.getByLabel('URL').evaluate((input: { type: string }) => (input.type = 'text'));
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByRole('alert').waitFor();
      await page.getByLabel('URL').fill(receiverUrl);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByRole('heading', { name: 'Endpoint added' }).waitFor();
      secret = (await page.locator('#signing-secret').textContent())!.trim();
      expect(secret).toMatch(/^whsec_/);
      await page.getByRole('link', { name: 'I have stored it' }).click();
      await page.waitForLoadState('load');
      endpointPath = new URL(page.url()).pathname;
      expect(await page.content()).not.toContain(secret);
      expect(await seriousViolations(page)).toEqual([]);
      await docScreenshot(page, 'dashboard-endpoint');

      await page.getByRole('button', { name: 'Send ping' }).click();
      const flash = (await page.getByRole('status').textContent())!;
      const pingId = /evt_[0-9A-Z]+/.exec(flash)![0];
      await eventually(
        async () => deliveriesOf(pingId).length,
        (n) => n === 1,
      );
      const ping = deliveriesOf(pingId)[0]!;
      expect(ping.event.type).toBe('ping');
      // Throws unless webhook-id, webhook-timestamp and webhook-signature sign exactly this body.
      new Webhook(secret).verify(ping.raw, ping.headers);

      // The event's page lists the attempt; Resend delivers it again, with the same id.
      await page.goto(`/dashboard/test/developers/events/${pingId}`);
      await page.getByText('delivered').first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('To').selectOption({ label: receiverUrl });
      await page.getByRole('button', { name: 'Resend event' }).click();
      await page.getByText('Resent to 1 endpoint(s).').waitFor();
      await eventually(
        async () => deliveriesOf(pingId).length,
        (n) => n === 2,
      );
      new Webhook(secret).verify(deliveriesOf(pingId)[1]!.raw, deliveriesOf(pingId)[1]!.headers);
      await eventually(
        async () => {
          await page.reload();
          return page.locator('tbody tr').count();
        },
        (n) => n === 2,
      );
    });
  });

  it('edits, disables and enables the endpoint, and a rotated secret signs next to the old one', async () => {
    const page = await h.signedIn(shop);
    await walk('endpoint-manage', page, async () => {
      await page.goto(endpointPath);
      await page.getByLabel('Only these:').check();
      await page.getByLabel('payment.paid').check();
      await page.getByRole('button', { name: 'Save endpoint' }).click();
      await page.getByText('Endpoint saved.').waitFor();
      await expect(page.locator('dl.fields').textContent()).resolves.toContain('payment.paid');
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByText('Endpoint disabled').waitFor();
      await page.getByRole('button', { name: 'Enable' }).click();
      await page.getByText('Endpoint enabled').waitFor();

      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('heading', { name: 'New signing secret' }).waitFor();
      const rotated = (await page.locator('#signing-secret').textContent())!.trim();
      expect(rotated).not.toBe(secret);
      await page.getByRole('link', { name: 'I have stored it' }).click();
      await page.waitForLoadState('load');
      await page.getByRole('button', { name: 'Send ping' }).click();
      const pingId = /evt_[0-9A-Z]+/.exec((await page.getByRole('status').textContent())!)![0];
      await eventually(
        async () => deliveriesOf(pingId).length,
        (n) => n === 1,
      );
      const ping = deliveriesOf(pingId)[0]!;
      // Both secrets verify during the overlap window.
      new Webhook(rotated).verify(ping.raw, ping.headers);
      new Webhook(secret).verify(ping.raw, ping.headers);
    });
  });

  it('another account’s endpoint or event, or Test ones under /live/, are a 404', async () => {
    const theirs = await h.platform.operator('webhooks', 'endpoints', 'add', other.accountId, '--mode', 'test', '--url', receiverUrl);
    expect(theirs.code).toBe(0);
    const theirEndpoint = (JSON.parse(theirs.stdout) as { id: string }).id;
    const page = await h.signedIn(shop);
    await walk('developers-isolation', page, async () => {
      expect((await page.goto(`/dashboard/test/developers/endpoints/${theirEndpoint}`))?.status()).toBe(404);
      expect((await page.goto(`/dashboard/live${endpointPath.replace('/dashboard/test', '')}`))?.status()).toBe(404);
      await page.goto('/dashboard/test/developers/events');
      const eventId = (await page.locator('tbody code.muted').first().textContent())!.trim();
      expect((await page.goto(`/dashboard/live/developers/events/${eventId}`))?.status()).toBe(404);
    });
    const [cookie] = await page.context().cookies();
    await page.goto('/dashboard/test/settings');
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const forged = await fetch(`${h.url}/dashboard/test/developers/endpoints/${theirEndpoint}/disable`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: `hc_dashboard=${cookie!.value}`, origin: h.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf }).toString(),
    });
    expect(forged.status).toBe(404);
  });
});
