// Risk covered: the dashboard's customers area showing another account's or mode's buyers, a note
// leaking or not sticking, or "Delete data" erasing without a deliberate confirmation — or not
// erasing what the API shows. Real platform, dashboard and Chromium.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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
let shop: DashboardMerchant;
let other: DashboardMerchant;

/** A paid Test payment with the buyer's email, made through the public API as a shop's server does. */
const paidPayment = (key: string, email: string, amount = '19.90'): Promise<string> =>
  apiPayment(h.platform, key, { amount, customer_email: email, reference: `ORD-${Date.now()}` }, 'paid');

async function customerOf(key: string, email: string): Promise<{ id: string; erased: boolean; email: string | null }> {
  const listed = await h.platform.request('GET', `/v1/customers?email=${encodeURIComponent(email)}`, { key });
  expect(listed.status).toBe(200);
  const { data } = (await listed.json()) as { data: { id: string; erased: boolean; email: string | null }[] };
  return data[0]!;
}

beforeAll(async () => {
  h = await startDashboardHarness('customers');
  [shop, other] = await Promise.all([h.merchant(), h.merchant()]);
}, 120_000);
afterAll(async () => {
  await h?.stop();
});

describe('customers', () => {
  it('lists and finds a buyer right after the API answered the payment, shows the orders, and keeps a private note', async () => {
    const paymentId = await paidPayment(shop.testKey, 'ann@buyer.example', '19.90');
    await paidPayment(shop.testKey, 'bob@buyer.example', '5.00');
    const page = await h.signedIn(shop);
    await walk('customers-list', page, async () => {
      await page.goto('/dashboard/test/customers');
      await page.getByRole('link', { name: 'ann@buyer.example' }).waitFor();
      await expect(page.getByRole('link', { name: 'bob@buyer.example' }).isVisible()).resolves.toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await docScreenshot(page, 'dashboard-customers');

      await page.getByLabel('Email').fill('ANN@buyer.example');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForLoadState('load');
      await expect(page.getByRole('link', { name: 'bob@buyer.example' }).count()).resolves.toBe(0);
      await page.getByRole('link', { name: 'ann@buyer.example' }).click();
      await page.getByRole('heading', { name: 'ann@buyer.example' }).waitFor();
      await expect(page.getByText('19.90 USD').first().isVisible()).resolves.toBe(true);
      await expect(page.getByRole('link', { name: paymentId }).isVisible()).resolves.toBe(true);

      await page.getByLabel('Note').fill('Prefers pickup. VIP.');
      await page.getByRole('button', { name: 'Save note' }).click();
      await page.getByText('Note saved.').waitFor();
      expect(await page.getByLabel('Note').inputValue()).toBe('Prefers pickup. VIP.');
      expect(await seriousViolations(page)).toEqual([]);
      await docScreenshot(page, 'dashboard-customer');
    });
    // The note is for staff only: never in the public API.
    const customer = await customerOf(shop.testKey, 'ann@buyer.example');
    const api = await h.platform.request('GET', `/v1/customers/${customer.id}`, { key: shop.testKey });
    expect(await api.text()).not.toContain('Prefers pickup');
  });

  it('deletes a buyer’s data only after the email is typed, and the API then shows the customer erased', async () => {
    await paidPayment(shop.testKey, 'carol@buyer.example');
    const customer = await customerOf(shop.testKey, 'carol@buyer.example');
    const page = await h.signedIn(shop);
    await walk('customer-delete', page, async () => {
      await page.goto(`/dashboard/test/customers/${customer.id}`);
      await page.getByRole('link', { name: 'Delete data…' }).click();
      const button = page.getByRole('button', { name: 'Delete data permanently' });
      // With script: the button stays disabled until the email is typed. The click waits for the
      // navigation to commit only; the script's DOMContentLoaded work is done by the load event.
      await page.waitForLoadState('load');
      await expect(button.isDisabled()).resolves.toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      // Without the script's help (the server's own check): a wrong confirmation is refused.
      await page.getByLabel(/Type the customer's email/).fill('carol@buyer.example');
      await page.getByLabel(/Type the customer's email/).evaluate((input: { value: string }) => (input.value = 'someone else'));
      await page.locator('form button.danger').evaluate((b: { disabled: boolean }) => (b.disabled = false));
      const [refused] = await Promise.all([
        page.waitForResponse((r: { request(): { method(): string } }) => r.request().method() === 'POST'),
        button.click(),
      ]);
      expect(refused.status()).toBe(400);
      expect((await customerOf(shop.testKey, 'carol@buyer.example')).erased).toBe(false);

      await page.getByLabel(/Type the customer's email/).fill('carol@buyer.example');
      await button.click();
      await page.getByText('personal data was deleted').waitFor();
      await page.getByRole('heading', { name: 'Erased customer' }).waitFor();
    });
    const erased = await h.platform.request('GET', `/v1/customers/${customer.id}`, { key: shop.testKey });
    expect(await erased.json()).toMatchObject({ id: customer.id, erased: true, email: null });
  });

  it('another account’s customer, or a Test customer under /live/, is a 404', async () => {
    await paidPayment(other.testKey, 'dave@buyer.example');
    const theirs = await customerOf(other.testKey, 'dave@buyer.example');
    await paidPayment(shop.testKey, 'erin@buyer.example');
    const mine = await customerOf(shop.testKey, 'erin@buyer.example');
    const page = await h.signedIn(shop);
    await walk('customers-isolation', page, async () => {
      expect((await page.goto(`/dashboard/test/customers/${theirs.id}`))?.status()).toBe(404);
      expect((await page.goto(`/dashboard/test/customers/${theirs.id}/delete`))?.status()).toBe(404);
      expect((await page.goto(`/dashboard/live/customers/${mine.id}`))?.status()).toBe(404);
      expect((await page.goto('/dashboard/test/customers/cus_not_an_id'))?.status()).toBe(404);
      // Nor by search: the other account's buyer is not found in this account.
      await page.goto('/dashboard/test/customers?email=dave%40buyer.example');
      await expect(page.getByRole('link', { name: 'dave@buyer.example' }).count()).resolves.toBe(0);
    });
    // And a forged note post for their customer changes nothing there.
    const [cookie] = await page.context().cookies();
    const csrf = await page.goto('/dashboard/test/settings').then(() => page.locator('input[name="_csrf"]').first().inputValue());
    const forged = await fetch(`${h.url}/dashboard/test/customers/${theirs.id}/note`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: `hc_dashboard=${cookie!.value}`, origin: h.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, note: 'forged' }).toString(),
    });
    expect(forged.status).toBe(404);
  });
});
