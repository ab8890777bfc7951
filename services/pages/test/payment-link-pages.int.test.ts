// Risk covered: a buyer of a payment link (real Chromium, pages server, checkout, settlement,
// PostgreSQL, NATS) not seeing who it is for and the merchant's memo, a tracking page that offers an
// action, shows the wrong state, or goes on inviting payment once the link is canceled; a tracking page
// for a payment that is no link; a page breaking its strict CSP or with a serious accessibility issue.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type ServiceClient } from '@hc/grpc';
import { CheckoutAdminService } from '@hc/proto/checkout/v1';
import { ACCOUNT, merchant, seriousViolations, startPagesHarness, walk, type PagesHarness } from './pages-harness.ts';

let h: PagesHarness;
let admin: ServiceClient<typeof CheckoutAdminService>;

beforeAll(async () => {
  h = await startPagesHarness('pages-links');
  admin = createServiceClient(CheckoutAdminService, h.stack.checkout.address);
}, 60_000);

afterAll(async () => {
  admin.close();
  await h.stop();
});

async function newLink(): Promise<string> {
  const { payment: link } = await admin.createPaymentLink(
    {
      amount: '75',
      currency: 'eur',
      description: 'Table repair',
      customerName: 'Ada Lovelace',
      memo: 'Invoice 12 — thank you!',
      account: ACCOUNT,
    },
    merchant,
  );
  return link!.id;
}

describe('payment link pages', () => {
  it('the checkout page shows who it is for and the memo; the tracking page follows the state and never acts', async () => {
    const id = await newLink();
    const context = await h.context({ locale: 'en-GB' });
    const page = await context.newPage();
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
    await walk('payment-link', page, async () => {
      await page.goto(`${h.pages.url}/pay/${id}`);
      await expect(page.getByText('For Ada Lovelace').isVisible()).resolves.toBe(true);
      await expect(page.getByText('Invoice 12 — thank you!').isVisible()).resolves.toBe(true);

      const response = await page.goto(`${h.pages.url}/track/${id}`);
      expect(response!.status()).toBe(200);
      expect(response!.headers()['content-security-policy']).toContain("default-src 'none'");
      await page.getByRole('heading', { name: 'Waiting for payment' }).waitFor();
      await expect(page.getByText('For Ada Lovelace').isVisible()).resolves.toBe(true);
      expect(await page.locator('form, button').count()).toBe(0);
      expect(await page.getByRole('link', { name: 'the payment page' }).getAttribute('href')).toBe(`/pay/${id}`);
      expect(await seriousViolations(page)).toEqual([]);

      await admin.cancelPaymentLink({ id }, merchant);
      await page.reload();
      await page.getByRole('heading', { name: 'Payment canceled' }).waitFor();
      expect(await page.getByRole('link', { name: 'the payment page' }).count()).toBe(0);
      await page.goto(`${h.pages.url}/pay/${id}`);
      await page.getByRole('heading', { name: 'This payment was canceled' }).waitFor();
    });
    expect(cspViolations).toEqual([]);
  });

  it('a payment that is not a link, and an unknown id, have no tracking page', async () => {
    const session = await h.createSession();
    expect((await fetch(`${h.pages.url}/track/${session.id}`)).status).toBe(404);
    expect((await fetch(`${h.pages.url}/track/pay_01JAAAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
  });
});
