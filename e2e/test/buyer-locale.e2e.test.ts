// Risk covered (issue 49 item 1, docs/adr/0089): the buyer's language chosen wrongly — Accept-Language
// ignored or read without its q-values, a regional variant not falling back (de-AT → de, pt → pt-BR),
// the merchant's `locale` on create not overriding the browser, the buyer's own pick (?lang=, kept in
// a cookie) not overriding both — or `locale` refused, accepted or returned against the contract.
// Real gateway, checkout, pages, PostgreSQL, NATS and HTTP.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { loadPagesConfig, startPages, type RunningPages } from '@hc/pages';
import { create, createSession, expectError, VALID_BODY } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

let platform: Platform;
let merchant: TestMerchant;
let pages: RunningPages;

beforeAll(async () => {
  platform = await startPlatform();
  merchant = await platform.merchant();
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
