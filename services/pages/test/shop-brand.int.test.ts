// Risk covered: the shop's brand (docs/adr/0096) on the buyer pages breaking them — the CSP loosened
// (an inline style, another image origin) to show it, the logo served with a type a browser could
// sniff into a document or uncacheable, a logo or colour missing from a page the buyer sees, or an
// accessibility or console error where there was none. Real Chromium, pages, checkout and accounts.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { createServiceClient, type ServiceClient } from '@hc/grpc';
import { MerchantAdminService } from '@hc/proto/accounts/v1';
import { CheckoutAdminService } from '@hc/proto/checkout/v1';
import { testPng } from '@hc/test-kit';
import { ACCOUNT, merchant, seriousViolations, startPagesHarness, walk, type PagesHarness } from './pages-harness.ts';

let h: PagesHarness;
let accounts: ServiceClient<typeof MerchantAdminService>;
let checkouts: ServiceClient<typeof CheckoutAdminService>;
let logoPath: string;
const ACCENT = '#0a58ca';

beforeAll(async () => {
  h = await startPagesHarness('pages-brand');
  accounts = createServiceClient(MerchantAdminService, h.stack.accounts.address);
  checkouts = createServiceClient(CheckoutAdminService, h.stack.checkout.address);
  const { brand } = await accounts.setBrand(
    { accentColour: ACCENT, logo: testPng({ width: 320, height: 80, rgba: [200, 30, 60, 255] }), removeLogo: false },
    merchant,
  );
  logoPath = `/pay/brand/logo/${brand!.logoSha256}.png`;
}, 60_000);

afterAll(async () => {
  accounts.close();
  checkouts.close();
  await h.stop();
});

/** Opens a page as a buyer, collecting every console error and CSP report on the way. */
async function openAsBuyer(path: string): Promise<{ page: Page; problems: string[]; csp: string }> {
  const context = await h.context({ locale: 'en-GB' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.text().includes('Content Security Policy')) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const response = await page.goto(`${h.pages.url}${path}`);
  return { page, problems, csp: response!.headers()['content-security-policy']! };
}

/** What the buyer sees of the brand: the logo loaded, and the main button in the accent colour. */
async function brandShown(page: Page) {
  const logo = page.locator('header img.logo');
  await logo.waitFor();
  return {
    logoSrc: await logo.getAttribute('src'),
    logoLoaded: await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    logoAlt: await logo.getAttribute('alt'),
    // The bar beside the amount, on the pages that have one (not a checkout's).
    summaryBar: (await page.locator('.summary').count())
      ? await page
          .locator('.summary')
          .first()
          .evaluate((s) => getComputedStyle(s).borderInlineStartColor)
      : null,
  };
}

/** The main button's colour, where the page has one. */
const buttonColour = (page: Page) =>
  page
    .locator('.button')
    .first()
    .evaluate((b) => getComputedStyle(b).backgroundColor);

const STRICT_STYLES = "style-src 'self'";

describe("the shop's brand on buyer pages", () => {
  it('the payment page shows the logo beside the name said once and the button in the accent, under the same strict CSP', async () => {
    const session = await h.createSession();
    const { page, problems, csp } = await openAsBuyer(`/pay/${session.id}`);
    await walk('brand-payment-page', page, async () => {
      const accent = 'rgb(10, 88, 202)';
      expect(await brandShown(page)).toEqual({ logoSrc: logoPath, logoLoaded: true, logoAlt: '', summaryBar: accent });
      await expect(buttonColour(page)).resolves.toBe(accent);
      await expect(page.locator('header .merchant').textContent()).resolves.toBe(ACCOUNT.merchantName);
      expect(csp).toContain(STRICT_STYLES);
      expect(csp).toContain("img-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(await page.locator('[style], style').count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    });
  });

  it('a payment link tracking page and a checkout page wear it too', async () => {
    const { payment: link } = await checkouts.createPaymentLink(
      { amount: '12.00', currency: 'usd', description: 'Lamp', account: ACCOUNT },
      merchant,
    );
    const tracking = await openAsBuyer(new URL(link!.trackingUrl!).pathname);
    expect(await brandShown(tracking.page)).toMatchObject({ logoLoaded: true, summaryBar: 'rgb(10, 88, 202)' });
    expect(tracking.problems).toEqual([]);
    const { checkout } = await checkouts.createCheckout(
      { kind: 'page', description: 'Hosting', currency: 'EUR', amount: '9', account: ACCOUNT },
      merchant,
    );
    const page = await openAsBuyer(`/c/${checkout!.id}`);
    expect(await brandShown(page.page)).toMatchObject({ logoLoaded: true });
    await expect(buttonColour(page.page)).resolves.toBe('rgb(10, 88, 202)');
    expect(page.problems).toEqual([]);
  });

  it('serves the logo as an immutable PNG that cannot be sniffed into anything else; any other name is a 404', async () => {
    const response = await fetch(`${h.pages.url}${logoPath}`);
    expect(response.status).toBe(200);
    expect(
      Object.fromEntries(['content-type', 'x-content-type-options', 'cache-control'].map((n) => [n, response.headers.get(n)])),
    ).toEqual({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect([...new Uint8Array(await response.arrayBuffer()).slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    for (const other of [logoPath.replace('.png', '.webp'), logoPath.replace('.png', '.svg'), `/pay/brand/logo/${'0'.repeat(64)}.png`])
      expect((await fetch(`${h.pages.url}${other}`)).status).toBe(404);
  });

  it('serves the accent as a stylesheet named by the colour, and nothing for a name that is not one', async () => {
    const css = await fetch(`${h.pages.url}/pay/brand/accent/0a58ca.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    await expect(css.text()).resolves.toContain('--accent:#0a58ca');
    expect((await fetch(`${h.pages.url}/pay/brand/accent/0a58ca;x.css`)).status).toBe(404);
  });

  it('a shop without a brand keeps the platform look (no logo, the green button)', async () => {
    const other = { ...merchant, accountId: 'acct_plain' };
    await h.stack.putAccount({ id: other.accountId, name: 'Plain Shop', payoutWallet: ACCOUNT.payoutWallet, feeBps: 150 });
    const session = await h.createSession({ account: { ...ACCOUNT, merchantName: 'Plain Shop' } }, other);
    const { page, problems } = await openAsBuyer(`/pay/${session.id}`);
    expect(await page.locator('header img').count()).toBe(0);
    await expect(buttonColour(page)).resolves.toBe('rgb(0, 112, 60)');
    expect(problems).toEqual([]);
  });
});
