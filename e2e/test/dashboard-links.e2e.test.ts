// Risk covered: the dashboard's payment links and checkouts making something other than what the
// merchant typed (or what the API and the buyer's pages then show), a cancel or archive without a
// confirmation step, bad input answered with a 500 instead of the form and its field, a wrong
// widget snippet, and one account's (or mode's) links and checkouts reachable by URL from another.
// Real platform, dashboard, buyer pages server and Chromium.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page, Response as PlaywrightResponse } from 'playwright-core';
import { createServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { loadPagesConfig, startPages, type RunningPages } from '@hc/pages';
import { CheckoutAdminService } from '@hc/proto/checkout/v1';
import { bodyOf } from './e2e-helpers.ts';
import {
  docScreenshot,
  seriousViolations,
  startDashboardHarness,
  walk,
  type DashboardHarness,
  type DashboardMerchant,
} from './dashboard-harness.ts';

let h: DashboardHarness;
let pages: RunningPages;
let merchant: DashboardMerchant;
let stranger: DashboardMerchant;

beforeAll(async () => {
  h = await startDashboardHarness('links');
  pages = await startPages(
    loadPagesConfig({ PAGES_PORT: '0', CHECKOUT_GRPC_ADDRESS: h.platform.stack.checkout.address, LOG_LEVEL: 'silent' }),
    createLogger('pages-test', { level: 'silent' }),
  );
  [merchant, stranger] = await Promise.all([h.merchant(), h.merchant()]);
}, 120_000);
// The platform, the dashboard, the pages and Chromium stop in turn: on a loaded CI machine once more than 30 s.
afterAll(async () => {
  await pages?.stop();
  await h?.stop();
}, 120_000);

const CLIPBOARD = { permissions: ['clipboard-read', 'clipboard-write'] };

/** The buyer's page of an address the platform hands out ({PUBLIC_BASE_URL}/…), on the local pages server. */
const onPages = (url: string): string => `${pages.url}${new URL(url).pathname}`;

async function submit(page: Page, button: string): Promise<PlaywrightResponse> {
  const [response] = await Promise.all([
    page.waitForResponse((r: PlaywrightResponse) => r.request().method() === 'POST'),
    page.getByRole('button', { name: button }).click(),
  ]);
  return response;
}

async function createLink(page: Page, fields: { amount: string; description: string; name?: string }): Promise<string> {
  await page.goto('/dashboard/test/links/new');
  await page.getByLabel('Amount').fill(fields.amount);
  await page.getByLabel('Description').fill(fields.description);
  if (fields.name) await page.getByLabel('Customer name').fill(fields.name);
  await page.getByRole('button', { name: 'Create payment link' }).click();
  await page.waitForURL(/\/dashboard\/test\/links\/pay_[A-Za-z0-9]+$/);
  return page.url().split('/').pop()!;
}

async function copied(page: Page, id: string): Promise<string> {
  await page.locator(`button[data-copy="${id}"]`).click();
  return String(await page.evaluate('navigator.clipboard.readText()'));
}

/** The page is no wider than the phone (docs/adr/0029: usable at 320 px). */
async function noSidewaysScroll(page: Page): Promise<void> {
  const widths = (await page.evaluate(
    '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
  )) as {
    scroll: number;
    client: number;
  };
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

async function status(page: Page, path: string): Promise<number> {
  return (await page.goto(path))!.status();
}

describe('payment links', () => {
  it('creates a link the API reads and the buyer opens, copies its addresses, and cancels it after a confirmation step', async () => {
    const page = await h.signedIn(merchant, CLIPBOARD);
    await walk('links-create-cancel', page, async () => {
      await page.goto('/dashboard/test/links');
      await page.getByRole('link', { name: 'New payment link' }).click();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Amount').fill('25');
      await page.getByLabel('Currency').selectOption('EUR');
      await page.getByLabel('Description').fill('Table repair');
      await page.getByLabel('Customer name').fill('Ada Lovelace');
      await page.getByLabel('Note to the buyer').fill('Invoice 12');
      await page.getByLabel('Customer email').fill('ada@example.com');
      await page.getByLabel('Your reference').fill('INV-12');
      await page.getByLabel('Valid for').fill('3d');
      await page.getByRole('button', { name: 'Create payment link' }).click();
      await page.waitForURL(/\/dashboard\/test\/links\/pay_[A-Za-z0-9]+$/);
      const id = page.url().split('/').pop()!;
      await expect(page.getByRole('status').textContent()).resolves.toContain('Payment link created');

      const payment = await bodyOf(await h.platform.request('GET', `/v1/payments/${id}`, { key: merchant.testKey }));
      expect(payment).toMatchObject({
        id,
        status: 'open',
        amount: '25.00',
        currency: 'EUR',
        description: 'Table repair',
        reference: 'INV-12',
      });
      expect(Number(payment['expires_at']) - Number(payment['created'])).toBe(3 * 24 * 3600);
      const url = await copied(page, 'link-url');
      expect(url).toBe(payment['url']);
      expect(await copied(page, 'tracking-url')).toMatch(new RegExp(`/track/${id}$`));
      expect(await seriousViolations(page)).toEqual([]);

      const buyer = await (await h.context()).newPage();
      expect((await buyer.goto(onPages(url)))!.status()).toBe(200);
      await expect(buyer.getByText('Table repair').first().isVisible()).resolves.toBe(true);
      await expect(buyer.getByText('Ada Lovelace').first().isVisible()).resolves.toBe(true);

      await page.goto('/dashboard/test/links');
      await expect(page.getByRole('link', { name: 'Table repair' }).isVisible()).resolves.toBe(true);
      await docScreenshot(page, 'dashboard-links');
      await page.getByRole('link', { name: 'Table repair' }).click();
      await page.getByRole('link', { name: 'Cancel payment link' }).click();
      await page.waitForURL(new RegExp(`/links/${id}/cancel$`));
      expect(await seriousViolations(page)).toEqual([]);
      // The confirmation page changed nothing yet.
      expect((await bodyOf(await h.platform.request('GET', `/v1/payments/${id}`, { key: merchant.testKey })))['status']).toBe('open');
      await page.getByRole('button', { name: 'Yes, cancel the link' }).click();
      await page.waitForURL(new RegExp(`/links/${id}$`));
      await expect(page.getByRole('status').textContent()).resolves.toContain('Payment link canceled');
      await expect(page.locator('.status').first().textContent()).resolves.toBe('canceled');
      expect(await page.getByRole('link', { name: 'Cancel payment link' }).count()).toBe(0);

      // docs/payment-links.md: a canceled link reads expired with canceled_at; its page says so.
      const canceled = await bodyOf(await h.platform.request('GET', `/v1/payments/${id}`, { key: merchant.testKey }));
      expect(canceled).toMatchObject({ status: 'expired', canceled_at: expect.any(Number) });
      await buyer.goto(onPages(url));
      await expect(buyer.getByText('This payment was canceled').first().isVisible()).resolves.toBe(true);
    });
  });

  it('shows not_cancelable as a message when the link was finished before the cancel', async () => {
    const page = await h.signedIn(merchant);
    await walk('links-not-cancelable', page, async () => {
      const id = await createLink(page, { amount: '40', description: 'Too late to cancel' });
      await page.getByRole('link', { name: 'Cancel payment link' }).click();
      // Meanwhile the buyer starts and the payment ends (a declined Test payment).
      await h.platform.request('POST', `/v1/checkout_sessions/${id}/start`, {
        key: merchant.testKey,
        body: { customer_email: 'late@example.com' },
      });
      await h.platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome: 'failed' } });
      const response = await submit(page, 'Yes, cancel the link');
      expect(response.status()).toBe(409);
      await expect(page.getByRole('alert').textContent()).resolves.toContain('can no longer be canceled');
      expect((await bodyOf(await h.platform.request('GET', `/v1/payments/${id}`, { key: merchant.testKey })))['status']).toBe('failed');
    });
  });

  it('cancels a link a buyer took to a provider but nobody paid (pending)', async () => {
    const page = await h.signedIn(merchant);
    await walk('links-cancel-pending', page, async () => {
      const id = await createLink(page, { amount: '41', description: 'Pending, then canceled' });
      await h.platform.request('POST', `/v1/checkout_sessions/${id}/start`, {
        key: merchant.testKey,
        body: { customer_email: 'p@example.com' },
      });
      await h.platform.stack.checkout.deps.payments.change({ accountId: merchant.accountId, livemode: false }, id, new Date(), () => ({
        patch: { status: 'pending', provider: 'cardrail' },
        event: null,
      }));
      await page.reload();
      await page.getByRole('link', { name: 'Cancel payment link' }).click();
      await page.getByRole('button', { name: 'Yes, cancel the link' }).click();
      await page.waitForURL(new RegExp(`/links/${id}$`));
      await expect(page.getByRole('status').textContent()).resolves.toContain('Payment link canceled');
      expect(await bodyOf(await h.platform.request('GET', `/v1/payments/${id}`, { key: merchant.testKey }))).toMatchObject({
        status: 'expired',
        canceled_at: expect.any(Number),
      });
    });
  });

  it('re-renders the form with the service’s message and the field marked for a bad amount (400), keeping what was typed', async () => {
    const page = await h.signedIn(merchant);
    await walk('links-bad-amount', page, async () => {
      await page.goto('/dashboard/test/links/new');
      await page.getByLabel('Amount').fill('0.001');
      await page.getByLabel('Description').fill('Kept description');
      const response = await submit(page, 'Create payment link');
      expect(response.status()).toBe(400);
      await expect(page.getByRole('alert').textContent()).resolves.toContain('amount must be a decimal string');
      await expect(page.getByLabel('Amount').getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(page.getByLabel('Description').inputValue()).resolves.toBe('Kept description');
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByLabel('Amount').fill('10');
      await page.getByLabel('Valid for').fill('120d');
      expect((await submit(page, 'Create payment link')).status()).toBe(400);
      await expect(page.getByLabel('Valid for').getAttribute('aria-invalid')).resolves.toBe('true');
    });
  });

  it('in Live mode without a payout wallet says so with a way to Settings, and creates nothing', async () => {
    const walletless = await h.merchant();
    const page = await h.signedIn(walletless);
    await walk('links-no-wallet', page, async () => {
      await page.goto('/dashboard/live/settings');
      await page.getByLabel('Wallet address').fill('');
      await page.getByLabel('Your password').fill(walletless.password);
      await page.getByRole('button', { name: 'Save wallet' }).click();
      await page.getByText('Payout wallet removed.').waitFor();
      await page.goto('/dashboard/live/links/new');
      await page.getByLabel('Amount').fill('10');
      await page.getByLabel('Description').fill('Live thing');
      const response = await submit(page, 'Create payment link');
      expect(response.status()).toBe(409);
      await expect(page.getByRole('alert').textContent()).resolves.toContain('payout wallet');
      await page.getByRole('alert').getByRole('link', { name: 'Set the payout wallet in Settings' }).click();
      await page.waitForURL(/\/dashboard\/live\/settings$/);
      expect(await bodyOf(await h.platform.request('GET', '/v1/payments', { key: walletless.liveKey }))).toMatchObject({ data: [] });
    });
  });
});

describe('the account', () => {
  it('a suspended account is told it cannot create, and a create is refused (403 suspended) with nothing made', async () => {
    const suspended = await h.merchant();
    const page = await h.signedIn(suspended);
    await walk('links-suspended', page, async () => {
      expect((await h.platform.operator('accounts', 'suspend', suspended.accountId)).code).toBe(0);
      await page.goto('/dashboard/test/links/new');
      await expect(page.getByRole('note').filter({ hasText: 'suspended' }).isVisible()).resolves.toBe(true);
      await page.getByLabel('Amount').fill('10');
      await page.getByLabel('Description').fill('Refused');
      // Refused by the dashboard's guard before checkout is asked (docs/security.md 47.9).
      expect((await submit(page, 'Create payment link')).status()).toBe(403);
      await expect(page.locator('main').textContent()).resolves.toContain('This account is suspended');
      await page.goto('/dashboard/test/links/checkouts/new');
      await page.getByLabel('Description').fill('Refused too');
      await page.getByLabel('Price', { exact: true }).fill('5');
      expect((await submit(page, 'Create checkout')).status()).toBe(403);
      await page.goto('/dashboard/test/links');
      await expect(page.getByText('No payment links in Test mode yet').isVisible()).resolves.toBe(true);
      await expect(page.getByText('No checkouts in Test mode yet').isVisible()).resolves.toBe(true);
    });
  });

  it('lists links newest first, 20 a page, with a way to the older ones', async () => {
    const busy = await h.merchant();
    const admin = createServiceClient(CheckoutAdminService, h.platform.stack.checkout.address);
    const scope = { accountId: busy.accountId, livemode: false, requestId: 'req_paging' };
    for (let i = 1; i <= 21; i += 1)
      await admin.createPaymentLink(
        { amount: String(i), currency: 'EUR', description: `Link ${i}`, account: { feeBps: 100, merchantName: 'Test shop' } },
        scope,
      );
    admin.close();
    const page = await h.signedIn(busy);
    await walk('links-paging', page, async () => {
      await page.goto('/dashboard/test/links');
      const rows = page.locator('section[aria-labelledby="links-heading"] tbody tr');
      await expect(rows.count()).resolves.toBe(20);
      await expect(rows.first().getByRole('link').textContent()).resolves.toBe('Link 21');
      await page.getByRole('link', { name: 'Older' }).click();
      await page.waitForLoadState('load');
      await expect(rows.count()).resolves.toBe(1);
      await expect(rows.first().getByRole('link').textContent()).resolves.toBe('Link 1');
      expect(await page.getByRole('link', { name: 'Older' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Newest' }).click();
      await page.waitForLoadState('load');
      await expect(rows.count()).resolves.toBe(20);
      // Another account's id as the cursor is not a page of this list.
      expect(await status(page, '/dashboard/test/links?after=pay_doesnotexist0000000000')).toBe(400);
    });
  });
});

describe('checkouts', () => {
  it('lists checkouts newest first, 20 a page, paged apart from the links', async () => {
    const busy = await h.merchant();
    const admin = createServiceClient(CheckoutAdminService, h.platform.stack.checkout.address);
    const scope = { accountId: busy.accountId, livemode: false, requestId: 'req_checkout_paging' };
    const account = { feeBps: 100, merchantName: 'Test shop' };
    for (let i = 1; i <= 21; i += 1)
      await admin.createCheckout({ kind: 'page', description: `Checkout ${i}`, currency: 'EUR', amount: String(i), account }, scope);
    await admin.createPaymentLink({ amount: '5', currency: 'EUR', description: 'The one link', account }, scope);
    admin.close();
    const page = await h.signedIn(busy);
    await walk('checkouts-paging', page, async () => {
      await page.goto('/dashboard/test/links');
      const rows = page.locator('section[aria-labelledby="checkouts-heading"] tbody tr');
      await expect(rows.count()).resolves.toBe(20);
      await expect(rows.first().getByRole('link').textContent()).resolves.toBe('Checkout 21');
      await page.getByRole('link', { name: 'Older checkouts' }).click();
      await page.waitForLoadState('load');
      await expect(rows.count()).resolves.toBe(1);
      await expect(rows.first().getByRole('link').textContent()).resolves.toBe('Checkout 1');
      // The links list keeps its first page.
      await expect(page.locator('section[aria-labelledby="links-heading"] tbody tr').count()).resolves.toBe(1);
      expect(await page.getByRole('link', { name: 'Older checkouts' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Newest checkouts' }).click();
      await page.waitForLoadState('load');
      await expect(rows.count()).resolves.toBe(20);
      expect(await status(page, '/dashboard/test/links?checkouts_after=chk_doesnotexist000000000')).toBe(400);
    });
  });

  it('creates a widget checkout whose snippet (copied) loads it, and archives it after a confirmation step', async () => {
    const page = await h.signedIn(merchant, CLIPBOARD);
    await walk('checkouts-widget', page, async () => {
      await page.goto('/dashboard/test/links');
      await page.getByRole('link', { name: 'New checkout' }).click();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Widget').check();
      await page.getByLabel('Description').fill('Tip jar');
      await page.getByLabel('The buyer enters a price').check();
      await page.getByLabel('Lowest price').fill('2');
      await page.getByLabel('Highest price').fill('50');
      await page.getByRole('button', { name: 'Create checkout' }).click();
      await page.waitForURL(/\/dashboard\/test\/links\/checkouts\/chk_[A-Za-z0-9]+$/);
      const id = page.url().split('/').pop()!;
      await expect(page.getByRole('status').textContent()).resolves.toContain('Checkout created');
      await expect(page.getByText('2.00 to 50.00 EUR').isVisible()).resolves.toBe(true);

      const snippet = `<script src="https://pay.example.test/pay/assets/widget.js" data-checkout="${id}" async></script>`;
      await expect(page.locator('#widget-snippet').textContent()).resolves.toBe(snippet);
      expect(await copied(page, 'widget-snippet')).toBe(snippet);
      const url = await page.locator('#checkout-url').textContent();
      expect(url).toBe(`https://pay.example.test/c/${id}`);
      expect(await seriousViolations(page)).toEqual([]);
      await docScreenshot(page, 'dashboard-checkout');

      // The snippet's script and the checkout it names are served by the buyer pages.
      const buyer = await (await h.context()).newPage();
      expect((await buyer.goto(onPages(snippet.split('"')[1]!)))!.status()).toBe(200);
      expect((await buyer.goto(onPages(`${url}/embed`)))!.status()).toBe(200);
      await expect(buyer.getByText('Tip jar').first().isVisible()).resolves.toBe(true);

      await page.getByRole('link', { name: 'Archive checkout' }).click();
      await page.waitForURL(new RegExp(`/checkouts/${id}/archive$`));
      expect(await seriousViolations(page)).toEqual([]);
      expect((await buyer.goto(onPages(url!)))!.status()).toBe(200);
      await page.getByRole('button', { name: 'Yes, archive the checkout' }).click();
      await page.waitForURL(new RegExp(`/checkouts/${id}$`));
      await expect(page.getByRole('status').textContent()).resolves.toContain('Checkout archived');
      await expect(page.locator('.status').first().textContent()).resolves.toBe('archived');
      expect((await buyer.goto(onPages(url!)))!.status()).toBe(410);
      await expect(buyer.getByText('no longer available').first().isVisible()).resolves.toBe(true);
    });
  });

  it('creates a pricing table of the typed plans, and refuses one plan with the plans marked', async () => {
    const page = await h.signedIn(merchant);
    await walk('checkouts-pricing-table', page, async () => {
      await page.goto('/dashboard/test/links/checkouts/new');
      await page.getByLabel('Pricing table').check();
      await page.getByLabel('Description').fill('Hosting');
      await page.getByLabel('Currency').selectOption('USD');
      await page.getByLabel('Plan 1 name').fill('Basic');
      await page.getByLabel('Plan 1 price').fill('9');
      const response = await submit(page, 'Create checkout');
      expect(response.status()).toBe(400);
      await expect(page.getByRole('alert').textContent()).resolves.toContain('2 to 4 plans');
      await expect(page.getByLabel('Plan 1 name').getAttribute('aria-invalid')).resolves.toBe('true');
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByLabel('Plan 2 name').fill('Pro');
      await page.getByLabel('Plan 2 price').fill('29');
      await page.getByRole('button', { name: 'Create checkout' }).click();
      await page.waitForURL(/\/checkouts\/chk_[A-Za-z0-9]+$/);
      await expect(page.getByText('Basic 9.00, Pro 29.00 USD').isVisible()).resolves.toBe(true);
      expect(await page.locator('#widget-snippet').count()).toBe(0);
      const buyer = await (await h.context()).newPage();
      await buyer.goto(onPages((await page.locator('#checkout-url').textContent())!));
      await expect(buyer.getByText('Pro').first().isVisible()).resolves.toBe(true);
    });
  });
});

describe('without script, on a small phone', () => {
  it('makes and cancels a link and makes a widget checkout with JavaScript off, and no page scrolls sideways at 320 px', async () => {
    const tab = await h.signedIn(merchant, { javaScriptEnabled: false, viewport: { width: 320, height: 640 } });
    await walk('links-no-script', tab, async () => {
      const id = await createLink(tab, { amount: '8', description: 'No script', name: 'Grace Hopper' });
      // The copy buttons need the script; the addresses are on the page to select by hand.
      expect(await tab.locator('button[data-copy]').first().isHidden()).toBe(true);
      await expect(tab.locator('#link-url').textContent()).resolves.toMatch(new RegExp(`/pay/${id}$`));
      await noSidewaysScroll(tab);
      await tab.getByRole('link', { name: 'Cancel payment link' }).click();
      await noSidewaysScroll(tab);
      await tab.getByRole('button', { name: 'Yes, cancel the link' }).click();
      await tab.waitForURL(new RegExp(`/links/${id}$`));
      expect((await bodyOf(await h.platform.request('GET', `/v1/payments/${id}`, { key: merchant.testKey })))['canceled_at']).toEqual(
        expect.any(Number),
      );

      await tab.goto('/dashboard/test/links/checkouts/new');
      await noSidewaysScroll(tab);
      await tab.getByLabel('Widget').check();
      await tab.getByLabel('Description').fill('A rather long description of a widget checkout');
      await tab.getByLabel('Price', { exact: true }).fill('15');
      await tab.getByRole('button', { name: 'Create checkout' }).click();
      await tab.waitForURL(/\/checkouts\/chk_[A-Za-z0-9]+$/);
      await expect(tab.locator('#widget-snippet').textContent()).resolves.toContain('data-checkout="chk_');
      await noSidewaysScroll(tab);
      for (const path of ['/dashboard/test/links', '/dashboard/test/links/new']) {
        await tab.goto(path);
        await noSidewaysScroll(tab);
      }
    });
  });
});

describe('isolation', () => {
  it('another account’s link and checkout, and a Test object under /live/, are 404 — reading and changing alike', async () => {
    const owner = await h.signedIn(merchant);
    const linkId = await createLink(owner, { amount: '12', description: 'Only mine' });
    await owner.goto('/dashboard/test/links/checkouts/new');
    await owner.getByLabel('Description').fill('My page');
    await owner.getByLabel('Price', { exact: true }).fill('5');
    await owner.getByRole('button', { name: 'Create checkout' }).click();
    await owner.waitForURL(/\/checkouts\/chk_[A-Za-z0-9]+$/);
    const checkoutId = owner.url().split('/').pop()!;

    for (const path of [
      `links/${linkId}`,
      `links/${linkId}/cancel`,
      `links/checkouts/${checkoutId}`,
      `links/checkouts/${checkoutId}/archive`,
    ])
      expect(await status(owner, `/dashboard/live/${path}`)).toBe(404);
    // A payment made through the API is not a payment link.
    const apiPayment = await bodyOf(
      await h.platform.request('POST', '/v1/checkout_sessions', {
        key: merchant.testKey,
        body: { amount: '7.00', currency: 'EUR', description: 'From the API' },
      }),
    );
    expect(await status(owner, `/dashboard/test/links/${String(apiPayment['id'])}`)).toBe(404);

    const other = await h.signedIn(stranger);
    await walk('links-isolation', other, async () => {
      for (const path of [
        `links/${linkId}`,
        `links/${linkId}/cancel`,
        `links/checkouts/${checkoutId}`,
        `links/checkouts/${checkoutId}/archive`,
      ])
        expect(await status(other, `/dashboard/test/${path}`)).toBe(404);
      await expect(other.getByText('Only mine').count()).resolves.toBe(0);
      // Posting the changes with the stranger's own valid session and token: still 404, nothing changed.
      await other.goto('/dashboard/test/links');
      expect(await other.getByText('Only mine').count()).toBe(0);
      const csrf = await other.locator('input[name="_csrf"]').first().inputValue();
      for (const path of [`links/${linkId}/cancel`, `links/checkouts/${checkoutId}/archive`]) {
        const response = await other.request.post(`${h.url}/dashboard/test/${path}`, { form: { _csrf: csrf }, headers: { origin: h.url } });
        expect(response.status()).toBe(404);
      }
    });
    expect((await bodyOf(await h.platform.request('GET', `/v1/payments/${linkId}`, { key: merchant.testKey })))['status']).toBe('open');
    await owner.goto(`/dashboard/test/links/checkouts/${checkoutId}`);
    await expect(owner.locator('.status').first().textContent()).resolves.toBe('active');
  });
});
