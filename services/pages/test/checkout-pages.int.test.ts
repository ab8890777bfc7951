// Risk covered: a buyer of a dashboard checkout (real Chromium, pages server, checkout, settlement,
// PostgreSQL, NATS) who cannot choose a plan and pay, a payment missing its checkout id or plan label,
// a reload that makes another payment, an archived checkout still taking payments, and the widget not
// loading from the merchant's own site (another local origin) under the strict CSP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type ServiceClient } from '@hc/grpc';
import { CheckoutAdminService } from '@hc/proto/checkout/v1';
import { ACCOUNT, merchant, seriousViolations, startPagesHarness, walk, type PagesHarness } from './pages-harness.ts';

let h: PagesHarness;
let admin: ServiceClient<typeof CheckoutAdminService>;
let shop: Server;
let shopUrl: string;

beforeAll(async () => {
  h = await startPagesHarness('pages-checkouts');
  admin = createServiceClient(CheckoutAdminService, h.stack.checkout.address);
  shop = createServer((req, res) => {
    const id = new URL(req.url ?? '/', 'http://x').searchParams.get('chk') ?? '';
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<!doctype html><title>Shop</title><h1>Our mugs</h1><script src="${h.pages.url}/pay/assets/widget.js" data-checkout="${id}"></script>`,
      );
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  // Another origin than the pages server: "localhost" instead of 127.0.0.1, and its own port.
  shopUrl = `http://localhost:${(shop.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  admin.close();
  await h.stop();
  await new Promise((resolve) => shop.close(resolve));
});

const payments = (checkoutId: string) =>
  h.stack.checkout.deps.payments.list(merchant, 100).then((all) => all.filter((p) => p.checkoutId === checkoutId));

describe('dashboard checkout pages', () => {
  it('pricing table: choose a plan, pay in Test; the payment names the checkout and the plan; a reload makes no second payment', async () => {
    const { checkout } = await admin.createCheckout(
      {
        kind: 'pricing_table',
        description: 'Hosting',
        currency: 'EUR',
        plans: [
          { label: 'Basic', amount: '9' },
          { label: 'Pro', amount: '29' },
          { label: 'Team', amount: '99' },
        ],
        account: ACCOUNT,
      },
      merchant,
    );
    const id = checkout!.id;
    const context = await h.context({ locale: 'en-GB' });
    const page = await context.newPage();
    const cspViolations: string[] = [];
    page.on('console', (m) => {
      if (m.text().includes('Content Security Policy')) cspViolations.push(m.text());
    });
    await walk('pricing-table', page, async () => {
      const response = await page.goto(`${h.pages.url}/c/${id}`);
      expect(response!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await page.getByRole('heading', { name: 'Hosting' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.reload();
      expect(await payments(id)).toEqual([]);
      await page.getByRole('button', { name: /Choose Pro/ }).click();
      await page.waitForURL(/\/pay\/pay_/);
      await page.reload();
      expect((await payments(id)).length).toBe(1);
      await page.getByLabel('Email address').fill('buyer@example.com');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Choose how to pay' }).waitFor();
      await page.getByRole('button', { name: 'Simulate paid' }).click();
      await page.getByRole('heading', { name: 'Payment received' }).waitFor();
    });
    const [payment] = await payments(id);
    expect(payment).toMatchObject({ source: 'checkout', checkoutId: id, planLabel: 'Pro — 29.00 EUR', amount: '29.00', status: 'paid' });
    expect(cspViolations).toEqual([]);

    await admin.archiveCheckout({ id }, merchant);
    const archived = await page.goto(`${h.pages.url}/c/${id}`);
    expect(archived!.status()).toBe(410);
    await page.getByRole('heading', { name: 'This checkout is no longer available' }).waitFor();
    expect(await page.locator('form').count()).toBe(0);
  });

  it('widget: loaded by a script on another origin, framed there, and its Pay opens the payment in a new tab', async () => {
    const { checkout } = await admin.createCheckout(
      { kind: 'widget', description: 'Blue mug', currency: 'USD', amount: '19.90', account: ACCOUNT },
      merchant,
    );
    const id = checkout!.id;
    const context = await h.context({ locale: 'en-GB' });
    const page = await context.newPage();
    await walk('widget', page, async () => {
      await page.goto(`${shopUrl}/?chk=${id}`);
      const frame = page.frameLocator('iframe[title="Checkout"]');
      await frame.getByRole('heading', { name: 'Blue mug' }).waitFor();
      const [tab] = await Promise.all([context.waitForEvent('page'), frame.getByRole('button', { name: /Pay/ }).click()]);
      await tab.waitForURL(/\/pay\/pay_/);
      await tab.getByRole('heading', { name: 'Your payment' }).waitFor();
    });
    const made = await payments(id);
    expect(made).toEqual([expect.objectContaining({ source: 'checkout', checkoutId: id, amount: '19.90', planLabel: null })]);
    // A checkout that is not a widget cannot be framed.
    const { checkout: plain } = await admin.createCheckout(
      { kind: 'page', description: 'x', currency: 'USD', amount: '5', account: ACCOUNT },
      merchant,
    );
    const embed = await fetch(`${h.pages.url}/c/${plain!.id}/embed`, { redirect: 'manual' });
    expect(embed.status).toBe(303);
  });

  it('a buyer-entered price outside the range is refused on the page with words, and nothing is made', async () => {
    const { checkout } = await admin.createCheckout(
      { kind: 'page', description: 'Donation', currency: 'USD', minAmount: '5', maxAmount: '50', account: ACCOUNT },
      merchant,
    );
    const context = await h.context({ locale: 'en-GB' });
    const page = await context.newPage();
    await walk('range', page, async () => {
      await page.goto(`${h.pages.url}/c/${checkout!.id}`);
      await page.getByLabel(/Amount/).fill('500');
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.getByRole('alert').waitFor();
      expect(await payments(checkout!.id)).toEqual([]);
      await page.getByLabel(/Amount/).fill('12.5');
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL(/\/pay\/pay_/);
    });
    expect((await payments(checkout!.id)).map((p) => p.amount)).toEqual(['12.50']);
  });
});
