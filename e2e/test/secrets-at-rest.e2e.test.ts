// Risk covered (issue 35, item 7): a copy of the webhooks or dashboard database — a backup, a replica,
// a read-only SQL injection — handing out merchants' webhook signing secrets (so anyone could forge
// webhooks to them) or users' two-factor seeds (so the second factor is only a password away). Both
// must be stored encrypted (docs/adr/0042), and signing and two-factor sign-in must still work with
// the decrypted values. Real platform, dashboard, Chromium, a local receiver and raw SQL reads.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { startDashboardHarness, walk, type DashboardHarness, type DashboardMerchant } from './dashboard-harness.ts';
import { eventually, everyRowOf, startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from './e2e-helpers.ts';
import { unixSeconds } from '@hc/conversions';

let h: DashboardHarness;
let shop: DashboardMerchant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  h = await startDashboardHarness('secrets');
  shop = await h.merchant();
  receiver = await startWebhookReceiver<ReceivedWebhook['event']>();
}, 120_000);
afterAll(async () => {
  receiver?.close();
  await h?.stop();
});

/** One column of every row of a table, read with plain SQL (no service code in between). */
async function column(databaseUrl: string, sql: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ value: string }>(sql)).rows.map((r) => r.value);
  } finally {
    await client.end();
  }
}

/** Neither database holds any of `secrets` (whole, or a signing secret's key without its prefix), nor any `whsec_` value. */
async function expectNoPlaintext(secrets: string[]): Promise<void> {
  const stored = `${await everyRowOf(h.platform.webhooks!.databaseUrl)}\n${await everyRowOf(h.database.url)}`;
  const leaked = secrets.flatMap((secret) => [secret, secret.replace(/^whsec_/, '')]).filter((s) => stored.includes(s));
  expect({ leaked, whsec: /whsec_/.test(stored) }).toEqual({ leaked: [], whsec: false });
}

describe('secrets at rest', () => {
  it('an endpoint, its rotated secret and a two-factor seed are stored sealed; pings verify and two-factor sign-in works', async () => {
    const page = await h.signedIn(shop);
    const shown: string[] = [];
    let seed = '';
    const codeAt = () => generate({ secret: seed, epoch: unixSeconds(h.platform.clock.now()) });
    await walk('secrets-at-rest', page, async () => {
      // An endpoint, then a rotation: the old secret keeps signing for the overlap window, so both stay stored.
      await page.goto('/dashboard/test/developers/endpoints/new');
      await page.getByLabel('URL').fill(receiver.url);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      shown.push((await page.locator('#signing-secret').textContent())!.trim());
      await page.getByRole('link', { name: 'I have stored it' }).click();
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('heading', { name: 'New signing secret' }).waitFor();
      shown.push((await page.locator('#signing-secret').textContent())!.trim());
      await page.getByRole('link', { name: 'I have stored it' }).click();
      expect(shown).toEqual([expect.stringMatching(/^whsec_/), expect.stringMatching(/^whsec_/)]);

      // Signing uses the decrypted secrets: a ping verifies with each of them.
      await page.getByRole('button', { name: 'Send ping' }).click();
      const pingId = /evt_[0-9A-Z]+/.exec((await page.getByRole('status').textContent())!)![0];
      const ping = await eventually(
        async () => receiver.delivered.find((d) => d.event.id === pingId),
        (d) => d !== undefined,
      );
      for (const secret of shown) new Webhook(secret).verify(ping!.raw, ping!.headers);

      // Two-factor set-up started: the pending seed is stored too.
      await page.goto('/dashboard/two-factor');
      await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      seed = (await page.locator('#totp-secret').textContent())!.trim();
      expect(seed).toMatch(/^[A-Z2-7]{16,}$/);
    });

    await expectNoPlaintext([...shown, seed]);
    const stored = await column(h.platform.webhooks!.databaseUrl, 'SELECT secret AS value FROM endpoint_secrets ORDER BY id');
    expect(stored).toEqual([expect.stringMatching(/^v1:[A-Za-z0-9_-]+:/), expect.stringMatching(/^v1:[A-Za-z0-9_-]+:/)]);
    const pending = await column(
      h.database.url,
      'SELECT totp_pending_secret AS value FROM dashboard_users WHERE totp_pending_secret IS NOT NULL',
    );
    expect(pending).toEqual([expect.stringMatching(/^v1:/)]);

    await walk('secrets-at-rest-2fa', page, async () => {
      await page.getByLabel('Code from the app').fill(await codeAt());
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByText('Two-factor sign-in is on').first().waitFor();
    });
    await expectNoPlaintext([...shown, seed]);
    const on = await column(h.database.url, 'SELECT totp_secret AS value FROM dashboard_users WHERE totp_secret IS NOT NULL');
    expect(on).toEqual([expect.stringMatching(/^v1:/)]);

    // Sign-in checks the code against the decrypted seed.
    await walk('secrets-at-rest-sign-in', page, async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      h.platform.clock.advance(30_000);
      await page.goto('/dashboard/sign-in');
      await page.getByLabel('Email').fill(shop.email);
      await page.getByLabel('Password').fill(shop.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/dashboard\/sign-in\/code/);
      await page.getByLabel('Code').fill(await codeAt());
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(/\/dashboard\/test\/overview/);
    });
  });
});
