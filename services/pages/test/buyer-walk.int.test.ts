// Risk covered: a buyer on the hosted checkout page (real Chromium, real pages server, checkout,
// settlement, PostgreSQL and NATS) not being able to pay, being told "paid" when the money is not
// confirmed, landing on the wrong shop address, seeing an error code instead of words, or meeting an
// inaccessible page (axe-core: no serious or critical violation in any state).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { docScreenshot, merchant, seriousViolations, startPagesHarness, walk, type PagesHarness } from './pages-harness.ts';

let h: PagesHarness;
let shop: Server;
let shopUrl: string;

beforeAll(async () => {
  h = await startPagesHarness('pages-walk');
  // The merchant's shop: answers its thank-you page.
  shop = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Thanks</title><p>${req.url}</p>`));
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await h.stop();
  await new Promise((resolve) => shop.close(resolve));
});

const pageUrl = (id: string) => `${h.pages.url}/pay/${id}`;

/** Start on the page as a buyer: email and country, then Continue. */
async function startAsBuyer(id: string, email: string, country = 'United States') {
  const context = await h.context({ locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto(pageUrl(id));
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Country you are paying from').selectOption({ label: country });
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Choose how to pay' }).waitFor();
  return { context, page };
}

describe('the hosted checkout page', () => {
  it('pays with the recommended provider and lands on the shop thank-you page with the placeholders filled', async () => {
    const session = await h.createSession({
      customerEmail: 'ann@example.com',
      reference: 'ORD 7/ü',
      successUrl: `${shopUrl}/thanks?payment={PAYMENT_ID}&ref={REFERENCE}`,
      cancelUrl: `${shopUrl}/cart`,
    });
    const context = await h.context({ locale: 'en-GB' });
    // The provider's site, as the buyer's new tab reaches it.
    await context.route(/\.example\//, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Provider</title><p>Provider</p>' }),
    );
    const page = await context.newPage();
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
    await walk('pays-with-recommended-provider', page, async () => {
      await page.goto(session.url.replace('https://pay.example.test', h.pages.url));
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your payment');
      // The shop's name once, in the header (docs/adr/0096).
      const naming = await page.locator('header, main h1, main .summary').allInnerTexts();
      expect(naming.join('\n').split('Blue Mug Shop')).toHaveLength(2);
      await expect(page.getByText('Test mode', { exact: true }).isVisible()).resolves.toBe(true);
      // A British buyer: the page in English, the amount in its format, the currency as set; the
      // country from the language (buyer-locales.int.test.ts walks the other locales).
      await expect(page.locator('.amount').textContent()).resolves.toMatch(/\$19\.90/);
      await expect(page.getByLabel('Country you are paying from').inputValue()).resolves.toBe('GB');
      await expect(page.getByLabel('Email address').inputValue()).resolves.toBe('ann@example.com');
      expect(await seriousViolations(page)).toEqual([]);
      await docScreenshot(page, 'checkout-open');

      await page.getByLabel('Email address').fill('Ann.Buyer@Example.com');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Choose how to pay' }).waitFor();
      const recommended = page.locator('.provider.recommended');
      await expect(recommended.getByText('Recommended').isVisible()).resolves.toBe(true);
      await expect(page.locator('.provider').first().getAttribute('class')).resolves.toContain('recommended');
      expect(await seriousViolations(page)).toEqual([]);

      const [providerTab] = await Promise.all([context.waitForEvent('page'), recommended.getByRole('button').click()]);
      await providerTab.waitForURL(/^https:\/\/[^/]+\.example\//);
      expect(providerTab.url()).toContain(session.id);
      await expect(providerTab.evaluate(() => window.opener)).resolves.toBeNull();
      // The buyer's page follows the change live: no reload.
      await page.getByRole('heading', { name: 'Waiting for your payment' }).waitFor();
      const { payment: pending } = await h.api.getCheckoutSession({ id: session.id }, merchant);
      expect(pending!.status).toBe('pending');
      expect(pending!.customerEmail).toBe('ann.buyer@example.com');
      expect(await seriousViolations(page)).toEqual([]);

      // The paid page goes on to the shop 1.5 s after it says so, and the accessibility check can take
      // longer on a loaded machine (CI rehearsal of 1 Dec: "Execution context was destroyed"): the
      // shop's answer waits for the check, and the navigation commits only once it has it.
      let paidPageChecked!: () => void;
      const checked = new Promise<void>((resolve) => (paidPageChecked = resolve));
      await page.route(`${shopUrl}/**`, async (route) => {
        await checked;
        await route.continue();
      });
      await page.getByRole('button', { name: 'Simulate paid' }).click();
      await page.getByRole('heading', { name: 'Payment received' }).waitFor();
      try {
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        paidPageChecked();
      }
      await page.waitForURL(`${shopUrl}/**`);
      expect(page.url()).toBe(`${shopUrl}/thanks?payment=${session.id}&ref=ORD%207%2F%C3%BC`);
      expect(cspViolations).toEqual([]);
    });
  });

  it('says the payment is being reviewed, never paid, when the buyer underpaid, with a way back to the shop', async () => {
    const session = await h.createSession({ cancelUrl: 'https://shop.example.test/cart' });
    const { page } = await startAsBuyer(session.id, 'bob@example.com');
    await walk('underpaid-held', page, async () => {
      await page.getByRole('button', { name: 'Simulate underpaid' }).click();
      await page.getByRole('heading', { name: 'Your payment is being reviewed' }).waitFor();
      await expect(page.getByText('not paid yet').isVisible()).resolves.toBe(true);
      await expect(page.getByText('Payment received').count()).resolves.toBe(0);
      await expect(page.getByRole('link', { name: 'Return to Blue Mug Shop' }).getAttribute('href')).resolves.toBe(
        'https://shop.example.test/cart',
      );
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  it('says the payment did not go through when it failed', async () => {
    const session = await h.createSession();
    const { page } = await startAsBuyer(session.id, 'cy@example.com');
    await walk('failed', page, async () => {
      await page.getByRole('button', { name: 'Simulate failed' }).click();
      await page.getByRole('heading', { name: 'Your payment did not go through' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  it('shows a receipt when the shop gave no success_url', async () => {
    const session = await h.createSession();
    const { page } = await startAsBuyer(session.id, 'dee@example.com');
    await walk('receipt', page, async () => {
      await page.getByRole('button', { name: 'Simulate paid' }).click();
      await page.getByRole('heading', { name: 'Receipt' }).waitFor();
      await docScreenshot(page, 'checkout-paid');
      await expect(page.getByText(session.id).isVisible()).resolves.toBe(true);
    });
  });

  it('explains a start error in words: an invalid email, then a country no provider serves', async () => {
    const session = await h.createSession();
    const context = await h.context({ locale: 'en-GB' });
    const page = await context.newPage();
    await walk('start-errors', page, async () => {
      await page.goto(pageUrl(session.id));
      await page.getByLabel('Email address').fill('not-an-email');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toContain('Enter an email address in the correct format');
      await expect(page.getByLabel('Email address').getAttribute('aria-invalid')).resolves.toBe('true');
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByLabel('Email address').fill('eve@example.com');
      await page.getByLabel('Country you are paying from').selectOption('KP');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toContain('No payment provider can take this payment');
      await expect(page.getByLabel('Email address').inputValue()).resolves.toBe('eve@example.com');
    });
  });

  it('tells the buyer a payment has expired', async () => {
    const session = await h.createSession();
    h.stack.clock.advance(25 * 60 * 60 * 1000);
    const context = await h.context({ locale: 'en-GB' });
    const page = await context.newPage();
    await walk('expired', page, async () => {
      await page.goto(pageUrl(session.id));
      await page.getByRole('heading', { name: 'This payment has expired' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  it('tells the buyer a canceled payment can no longer be paid, with a way back to the shop', async () => {
    const session = await h.createSession({ cancelUrl: 'https://shop.example.test/cart' });
    // Checkout has no cancel verb yet (payment links will add it); it marks a session as one would.
    const db = new pg.Client({ connectionString: h.stack.checkoutDatabaseUrl });
    await db.connect();
    await db.query('UPDATE checkout_sessions SET canceled_at = now() WHERE id = $1', [session.id]);
    await db.end();
    const context = await h.context({ locale: 'en-GB' });
    const page = await context.newPage();
    await walk('canceled', page, async () => {
      await page.goto(pageUrl(session.id));
      await page.getByRole('heading', { name: 'This payment was canceled' }).waitFor();
      await expect(page.getByRole('link', { name: 'Return to Blue Mug Shop' }).getAttribute('href')).resolves.toBe(
        'https://shop.example.test/cart',
      );
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  it('answers an unknown or malformed id with a 404 page that reveals nothing', async () => {
    const context = await h.context({ locale: 'en-GB' });
    const page = await context.newPage();
    await walk('not-found', page, async () => {
      for (const id of ['pay_01JAAAAAAAAAAAAAAAAAAAAAAA', 'cus_01JAAAAAAAAAAAAAAAAAAAAAAA', '<script>']) {
        const response = await page.goto(pageUrl(encodeURIComponent(id)));
        expect(response!.status()).toBe(404);
        await page.getByRole('heading', { name: 'Page not found' }).waitFor();
        await expect(page.content()).resolves.not.toContain(id);
      }
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  it('takes the buyer to the providers without JavaScript', async () => {
    const session = await h.createSession({ customerEmail: 'fay@example.com' });
    const context = await h.context({ locale: 'en-GB', javaScriptEnabled: false });
    const page = await context.newPage();
    await walk('no-javascript', page, async () => {
      await page.goto(pageUrl(session.id));
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Choose how to pay' }).waitFor();
      await expect(page.getByRole('button', { name: /^Pay with/ }).count()).resolves.toBeGreaterThan(0);
    });
  });

  // Last: it stops settlement for the rest of this file.
  it('says the payment network is unavailable, charges nothing, and offers to try again', async () => {
    const session = await h.createSession({ customerEmail: 'gus@example.com' });
    await h.stack.settlement.stop();
    const context = await h.context({ locale: 'en-GB' });
    const page = await context.newPage();
    await walk('network-unavailable', page, async () => {
      await page.goto(pageUrl(session.id));
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toContain(
        'We could not reach the payment network. Nothing was charged.',
      );
      await expect(page.getByRole('button', { name: 'Try again' }).isVisible()).resolves.toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
});
