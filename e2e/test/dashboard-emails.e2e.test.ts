// Risk covered: receipt and alert settings the merchant cannot see or change, a switch that does not
// stick (an unticked box not posted), a bad alert address saved or answered with a 500, a mail log that
// hides failures or shows another mode's mail. Real platform, notifications over real SMTP, Chromium.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { eventually } from '@hc/test-kit';
import { apiPayment, seriousViolations, startDashboardHarness, walk, type DashboardHarness } from './dashboard-harness.ts';

let h: DashboardHarness;
beforeAll(async () => {
  h = await startDashboardHarness('emails', { notifications: true });
}, 120_000);
afterAll(async () => {
  await h?.stop();
});

it('the settings toggles: Test receipts and an alert address saved, a receipt then sent and logged; a bad address refused on its field', async () => {
  const merchant = await h.merchant();
  const page = await h.signedIn(merchant);
  const sink = h.platform.notifications!.sink;
  await walk('emails-settings', page, async () => {
    await page.goto('/dashboard/test/settings');
    await page.getByRole('link', { name: 'Manage emails' }).click();
    await page.waitForURL(/\/dashboard\/test\/settings\/emails$/);
    // The defaults: Live receipts and every alert on, Test receipts off, no alert address, nothing sent.
    await expect(page.getByLabel('Send buyers a receipt when a Live payment is paid').isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('Send receipts for Test payments too').isChecked()).resolves.toBe(false);
    await expect(page.getByText('No mail sent in test mode yet.').isVisible()).resolves.toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Send receipts for Test payments too').check();
    await page.getByLabel('Alert me when a payment is held').uncheck();
    await page.getByLabel(/Alert address/).fill('Ops@Shop.Example');
    await page.getByRole('button', { name: 'Save email settings' }).click();
    await page.waitForURL(/\/dashboard\/test\/settings\/emails$/);
    await expect(page.getByRole('status').textContent()).resolves.toContain('Email settings saved.');
    await expect(page.getByLabel('Send receipts for Test payments too').isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('Alert me when a payment is held').isChecked()).resolves.toBe(false);
    await expect(page.getByLabel(/Alert address/).inputValue()).resolves.toBe('ops@shop.example');

    // What the switches now do: a paid Test payment mails its buyer (Test receipts go only to the
    // account's own users: here the owner); a held one alerts nobody.
    const paid = await apiPayment(h.platform, merchant.testKey, { customer_email: merchant.email }, 'paid');
    await apiPayment(h.platform, merchant.testKey, { customer_email: 'held@example.com' }, 'underpaid');
    const received = await eventually(
      async () => sink.mails.filter((m) => m.envelopeTo.includes(merchant.email)),
      (m) => m.length >= 1,
    );
    expect(received).toHaveLength(1);
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: paid });
    await expect(row.textContent()).resolves.toMatch(/Receipt[\s\S]*sent/);
    await expect(row.textContent()).resolves.toContain(merchant.email);
    expect(sink.mails.filter((m) => m.envelopeTo.includes('ops@shop.example'))).toHaveLength(0);
    // The Live log is its own.
    await page.goto('/dashboard/live/settings/emails');
    await expect(page.getByText('No mail sent in live mode yet.').isVisible()).resolves.toBe(true);

    // A bad address: the form again, the field marked, nothing saved.
    await page.goto('/dashboard/test/settings/emails');
    await page.getByLabel(/Alert address/).fill('not an address');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Save email settings' }).click(),
    ]);
    expect(response.status()).toBe(400);
    await expect(page.getByLabel(/Alert address/).getAttribute('aria-invalid')).resolves.toBe('true');
    await page.goto('/dashboard/test/settings/emails');
    await expect(page.getByLabel(/Alert address/).inputValue()).resolves.toBe('ops@shop.example');
  });
}, 90_000);
