// Risk covered (issue 49 item 1, docs/adr/0089): the buyer's language chosen wrongly — Accept-Language
// ignored or read without its q-values, a regional variant not falling back (de-AT → de, pt → pt-BR),
// the merchant's `locale` on create not overriding the browser, the buyer's own pick (?lang=, kept in
// a cookie) not overriding both — or `locale` refused, accepted or returned against the contract; and
// the buyer's receipt in another language than the page they paid from.
// Real gateway, checkout, pages, notifications, PostgreSQL, NATS, HTTP and SMTP.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { NotificationsService } from '@hc/proto/notifications/v1';
import { loadPagesConfig, startPages, type RunningPages } from '@hc/pages';
import { create, createSession, eventually, expectError, VALID_BODY } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

let platform: Platform;
let merchant: TestMerchant;
let pages: RunningPages;

beforeAll(async () => {
  platform = await startPlatform({ notifications: true });
  merchant = await platform.merchant();
  // Receipts for Test payments (docs/notifications.md), so the buyer's receipt can be read.
  const notifications = createServiceClient(NotificationsService, platform.notifications!.address);
  await notifications.updateNotificationSettings(
    { testReceiptsEnabled: true },
    { accountId: merchant.accountId, livemode: false, requestId: 'req_e2e' },
  );
  notifications.close();
  pages = await startPages(
    loadPagesConfig({ PAGES_PORT: '0', CHECKOUT_GRPC_ADDRESS: platform.stack.checkout.address, LOG_LEVEL: 'silent' }),
    createLogger('pages-test', { level: 'silent' }),
  );
}, 120_000);
afterAll(async () => {
  await pages?.stop();
  await platform?.stop();
});

/** The page's language and direction as its <html> says, for a buyer with these headers. */
async function pageLanguage(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ lang: string; dir: string; cookie: string | null }> {
  const response = await fetch(`${pages.url}${path}`, { headers });
  const html = await response.text();
  const [, lang = '', dir = ''] = /<html lang="([^"]*)" dir="([^"]*)">/.exec(html) ?? [];
  return { lang, dir, cookie: response.headers.get('set-cookie') };
}

describe('locale on create (POST /v1/checkout_sessions, /v1/payment_links)', () => {
  it('is returned in its listed spelling, and null when not sent', async () => {
    expect(await createSession(platform, merchant.testKey, { ...VALID_BODY, locale: 'pt-br' })).toMatchObject({ locale: 'pt-BR' });
    expect(await createSession(platform, merchant.testKey)).toMatchObject({ locale: null });
    const link = await platform.request('POST', '/v1/payment_links', { key: merchant.testKey, body: { ...VALID_BODY, locale: 'ja' } });
    expect(link.status).toBe(201);
    expect(await link.json()).toMatchObject({ locale: 'ja' });
  });

  it.each([['de-AT'], ['xx'], [''], [42], [['de']]])('refuses %j with 400 invalid_locale on field locale', async (locale) => {
    await expectError(await create(platform, merchant.testKey, { ...VALID_BODY, locale }), 400, 'invalid_locale', 'locale');
  });
});

describe('the page language', () => {
  it('follows Accept-Language with its q-values and fallbacks, right to left for Arabic', async () => {
    const session = await createSession(platform, merchant.testKey);
    const path = `/pay/${String(session['id'])}`;
    expect(await pageLanguage(path)).toMatchObject({ lang: 'en', dir: 'ltr' });
    expect(await pageLanguage(path, { 'accept-language': 'en;q=0.3, fr-CA;q=0.9, de;q=0.5' })).toMatchObject({ lang: 'fr' });
    expect(await pageLanguage(path, { 'accept-language': 'de-AT' })).toMatchObject({ lang: 'de' });
    expect(await pageLanguage(path, { 'accept-language': 'pt' })).toMatchObject({ lang: 'pt-BR' });
    expect(await pageLanguage(path, { 'accept-language': 'zh-CN, *;q=0.1' })).toMatchObject({ lang: 'en' });
    expect(await pageLanguage(path, { 'accept-language': 'ar-EG' })).toMatchObject({ lang: 'ar', dir: 'rtl' });
  });

  it('is the merchant’s locale over the browser’s, and the buyer’s pick over both, kept in a cookie', async () => {
    const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, locale: 'ja' });
    const path = `/pay/${String(session['id'])}`;
    expect(await pageLanguage(path, { 'accept-language': 'de' })).toMatchObject({ lang: 'ja' });
    const picked = await pageLanguage(`${path}?lang=pl`, { 'accept-language': 'de' });
    expect(picked).toMatchObject({ lang: 'pl' });
    expect(picked.cookie).toMatch(/^hc_lang=pl;.*HttpOnly/i);
    const cookie = picked.cookie!.split(';')[0]!;
    expect(await pageLanguage(path, { 'accept-language': 'de', cookie })).toMatchObject({ lang: 'pl' });
    // An unknown pick changes nothing.
    expect(await pageLanguage(`${path}?lang=xx`, { 'accept-language': 'de' })).toMatchObject({ lang: 'ja', cookie: null });
  });
});

describe('the receipt', () => {
  /** Starts a payment from its page the way a browser submits the form the page rendered. */
  async function startFromPage(id: string, cookie: string, email: string): Promise<void> {
    const page = await (await fetch(`${pages.url}/pay/${id}`, { headers: { cookie, 'accept-language': 'fr' } })).text();
    const locale = /<input type="hidden" name="locale" value="([^"]*)">/.exec(page)?.[1];
    const form = new URLSearchParams({ email, country: 'DE', ...(locale === undefined ? {} : { locale }) });
    const started = await fetch(`${pages.url}/pay/${id}/start`, {
      method: 'POST',
      headers: { cookie, 'accept-language': 'fr', origin: pages.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      redirect: 'manual',
    });
    expect(started.status).toBeLessThan(400);
  }

  async function receiptTo(email: string): Promise<{ lang: string; subject: string }> {
    const sink = platform.notifications!.sink;
    const mails = await eventually(
      async () => sink.mails.filter((m) => m.envelopeTo.includes(email)),
      (found) => found.length > 0,
      30_000,
    );
    const html = String(mails[0]!.parsed.html);
    return { lang: /<html lang="([^"]*)"/.exec(html)?.[1] ?? '', subject: mails[0]!.parsed.subject ?? '' };
  }

  it('speaks the language of the page the buyer paid from: their pick over the merchant’s locale and the browser', async () => {
    const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, locale: 'ja' });
    const id = String(session['id']);
    const cookie = (await pageLanguage(`/pay/${id}?lang=de`)).cookie!.split(';')[0]!;
    await startFromPage(id, cookie, 'picked.de@example.com');
    await platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome: 'paid' } });
    expect(await receiptTo('picked.de@example.com')).toMatchObject({ lang: 'de', subject: expect.stringContaining('Quittung') });
    // The API object keeps the merchant's choice: the page's language is the receipt's only.
    const read = await platform.request('GET', `/v1/checkout_sessions/${id}`, { key: merchant.testKey });
    expect(await read.json()).toMatchObject({ locale: 'ja' });
  });

  it('without a page (a start over the API) speaks the merchant’s locale', async () => {
    const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, locale: 'pl' });
    const id = String(session['id']);
    await platform.request('POST', `/v1/checkout_sessions/${id}/start`, {
      key: merchant.testKey,
      body: { customer_email: 'api.pl@example.com' },
    });
    await platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome: 'paid' } });
    expect(await receiptTo('api.pl@example.com')).toMatchObject({ lang: 'pl' });
  });
});
