// Risk covered: a buyer page state that shows a missing message (MISSING_MARK), English in another
// locale, a country code instead of its name, a page wider than a 390 px phone, or Arabic laid out
// left to right; in any locale, for every page state (details, its error, choose, waiting, paid,
// held, failed, expired, canceled, unavailable, not found, tracking, checkout pages, problem page).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { createServiceClient, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import { CheckoutAdminService, HostedCheckoutService } from '@hc/proto/checkout/v1';
import { LOCALES, MISSING_MARK, textDirection, type Locale } from '@hc/i18n';
import { ACCOUNT, merchant, startPagesHarness, walk, type PagesHarness } from './pages-harness.ts';

let h: PagesHarness;
let admin: ServiceClient<typeof CheckoutAdminService>;
let hosted: ServiceClient<typeof HostedCheckoutService, PublicCallContext>;
const buyer: PublicCallContext = { requestId: 'req_locales' };
/** Every page state, by name → its address on the pages server. */
const pages = new Map<string, string>();

/** The browser's languages per locale: mostly a regional variant, so negotiation is part of the test. */
const BROWSER_LOCALE: Record<Locale, string> = {
  en: 'en-US',
  de: 'de-AT',
  fr: 'fr-FR',
  es: 'es-MX',
  it: 'it-IT',
  nl: 'nl-NL',
  'pt-BR': 'pt',
  pl: 'pl-PL',
  ja: 'ja-JP',
  ar: 'ar-EG',
};

beforeAll(async () => {
  h = await startPagesHarness('pages-locales', { PAGES_VIEWS_PER_MINUTE: '100000', PAGES_ACTIONS_PER_MINUTE: '100000' });
  admin = createServiceClient(CheckoutAdminService, h.stack.checkout.address);
  hosted = createServiceClient<typeof HostedCheckoutService, PublicCallContext>(HostedCheckoutService, h.stack.checkout.address);
  await makeEveryState();
}, 120_000);

afterAll(async () => {
  admin.close();
  hosted.close();
  await h.stop();
});

const at = (path: string) => `${h.pages.url}${path}`;
const cancelUrl = 'https://shop.example.test/cart';

async function makeEveryState(): Promise<void> {
  // First the one that expires: the clock moves on for every session made before it moves.
  pages.set('expired', `/pay/${(await h.createSession({ cancelUrl })).id}`);
  h.stack.clock.advance(25 * 60 * 60 * 1000);
  const started = async (fields: Record<string, unknown> = {}) => {
    const session = await h.createSession({ cancelUrl, customerEmail: 'ann@example.com', ...fields });
    await hosted.startHostedSession({ id: session.id, country: 'DE' }, buyer);
    return session.id;
  };
  const reached = async () => {
    const id = await started();
    await hosted.reachHostedProvider({ id, provider: 'cardrail' }, buyer);
    return id;
  };
  pages.set('details', `/pay/${(await h.createSession({ cancelUrl })).id}`);
  pages.set('choose', `/pay/${await started()}`);
  pages.set('waiting', `/pay/${await reached()}`);
  for (const [name, outcome] of [
    ['paid', 'paid'],
    ['held', 'underpaid'],
    ['failed', 'failed'],
  ] as const) {
    const id = await reached();
    await hosted.simulateHostedPayment({ id, outcome }, buyer);
    pages.set(name, `/pay/${id}`);
  }
  const canceled = (await h.createSession({ cancelUrl })).id;
  const db = new pg.Client({ connectionString: h.stack.checkoutDatabaseUrl });
  await db.connect();
  await db.query('UPDATE checkout_sessions SET canceled_at = now() WHERE id = $1', [canceled]);
  await db.end();
  pages.set('canceled', `/pay/${canceled}`);
  pages.set('not found', '/pay/pay_00000000000000000000000000');
  await makeLinksAndCheckouts();
  await makeUnavailable();
}

async function makeLinksAndCheckouts(): Promise<void> {
  const link = async () =>
    (
      await admin.createPaymentLink(
        { amount: '75', currency: 'eur', description: 'Table repair', customerName: 'Ada Lovelace', account: ACCOUNT },
        merchant,
      )
    ).payment!.id;
  pages.set('tracking, waiting', `/track/${await link()}`);
  const paidLink = await link();
  await hosted.startHostedSession({ id: paidLink, country: 'FR', customerEmail: 'ann@example.com' }, buyer);
  await hosted.simulateHostedPayment({ id: paidLink, outcome: 'paid' }, buyer);
  pages.set('tracking, paid', `/track/${paidLink}`);
  const checkout = async (fields: Record<string, unknown>) =>
    (await admin.createCheckout({ description: 'Hosting', currency: 'EUR', account: ACCOUNT, ...fields }, merchant)).checkout!.id;
  pages.set('checkout, fixed price', `/c/${await checkout({ kind: 'page', amount: '19' })}`);
  pages.set('checkout, any amount', `/c/${await checkout({ kind: 'page', minAmount: '5', maxAmount: '500' })}`);
  pages.set(
    'checkout, pricing table',
    `/c/${await checkout({
      kind: 'pricing_table',
      plans: [
        { label: 'Basic', amount: '9' },
        { label: 'Team', amount: '99' },
      ],
    })}`,
  );
  const archived = await checkout({ kind: 'page', amount: '19' });
  await admin.archiveCheckout({ id: archived }, merchant);
  pages.set('checkout, archived', `/c/${archived}`);
}

/** A shop that cannot take payments: a payment on its way, and a checkout (the plain problem page). */
async function makeUnavailable(): Promise<void> {
  const own = { ...merchant, accountId: 'acct_pages_locales_off' };
  await h.stack.putAccount({ id: own.accountId, name: ACCOUNT.merchantName, payoutWallet: ACCOUNT.payoutWallet, feeBps: ACCOUNT.feeBps });
  const session = await h.createSession({ cancelUrl, customerEmail: 'ann@example.com' }, own);
  await hosted.startHostedSession({ id: session.id, country: 'DE' }, buyer);
  await hosted.reachHostedProvider({ id: session.id, provider: 'cardrail' }, buyer);
  const { checkout } = await admin.createCheckout(
    { kind: 'page', description: 'Hosting', currency: 'EUR', amount: '19', account: ACCOUNT },
    own,
  );
  await h.stack.accounts.operations.suspend(own.accountId);
  pages.set('unavailable', `/pay/${session.id}`);
  pages.set('problem page', `/c/${checkout!.id}`);
}

/** What one rendered page says about its language and layout. */
async function measure(page: Page) {
  return page.evaluate(() => {
    const heading = document.querySelector('h1')!;
    const range = document.createRange();
    range.selectNodeContents(heading);
    const text = range.getBoundingClientRect();
    const box = heading.getBoundingClientRect();
    return {
      lang: document.documentElement.lang,
      dir: document.documentElement.dir,
      direction: getComputedStyle(document.body).direction,
      scrollWidth: document.scrollingElement!.scrollWidth,
      innerWidth: window.innerWidth,
      body: document.body.innerText,
      main: document.querySelector('main')!.innerText,
      // Where the heading's text sits in its box: at the start of the line (left in LTR, right in RTL).
      headingStart: { left: Math.round(text.left - box.left), right: Math.round(box.right - text.right) },
    };
  });
}

describe('every buyer page state in every locale (Chromium, 390 px)', () => {
  // English first (it.each keeps the order): every other locale's page must differ from it.
  const english = new Map<string, string>();
  it.each(LOCALES)(
    '%s: its language, no missing message, no overflow, country names, and the right direction',
    async (locale) => {
      {
        const context = await h.context({
          locale: BROWSER_LOCALE[locale],
          javaScriptEnabled: false,
          viewport: { width: 390, height: 844 },
        });
        const page = await context.newPage();
        for (const [name, path] of [...pages, ['details, its error', pages.get('details')!] as const]) {
          await walk(`locale-${locale}-${name}`, page, async () => {
            await page.goto(at(path));
            if (name === 'details, its error') {
              await page.locator('#email').fill('not-an-email');
              await page.locator('form.details button[type=submit]').click();
              await page.locator('#problem').waitFor();
            }
            const seen = await measure(page);
            const where = `${locale} ${name}`;
            expect([where, seen.lang, seen.dir, seen.direction]).toEqual([where, locale, textDirection(locale), textDirection(locale)]);
            expect([where, seen.body.includes(MISSING_MARK)]).toEqual([where, false]);
            expect([where, seen.scrollWidth <= seen.innerWidth]).toEqual([where, true]);
            const start = textDirection(locale) === 'rtl' ? seen.headingStart.right : seen.headingStart.left;
            expect([where, start <= 1]).toEqual([where, true]);
            if (locale === 'en') english.set(name, seen.main);
            else expect([where, seen.main === english.get(name)]).toEqual([where, false]);
            if (name === 'choose') {
              const germany = new Intl.DisplayNames([locale], { type: 'region' }).of('DE')!;
              expect([where, seen.main.includes(germany), /\bDE\b/.test(seen.main)]).toEqual([where, true, false]);
            }
          });
        }
        await context.close();
      }
    },
    300_000,
  );
});
