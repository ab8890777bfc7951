// Risk covered (issue 35, item 2): a suspended account still taking buyers' money or changing where money
// goes — its checkout page still making payments, its payment link and hosted pages still starting,
// sending buyers to providers or ending Test payments as paid, its tracking page still pointing at the
// payment page — or a buyer meeting a 500 instead of plain words; its dashboard still saving a payout
// wallet or making API keys; and, the other way, money already on its way before the suspension not
// settling, or the operator unable to fix the wallet (docs/adr/0037). Real gateway (and its admin
// listener), checkout, settlement, emulator, pages server, dashboard with Chromium, PostgreSQL and NATS.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page, Response as PlaywrightResponse } from 'playwright-core';
import { createLogger } from '@hc/logging';
import { loadPagesConfig, startPages, type RunningPages } from '@hc/pages';
import { bodyOf, createSession, eventually, type Json } from './e2e-helpers.ts';
import { startDashboardHarness, walk, type DashboardHarness } from './dashboard-harness.ts';
import { WALLET, type TestMerchant } from './platform-harness.ts';

const CANNOT_PAY = 'This shop cannot take payments right now';

let h: DashboardHarness;
let pages: RunningPages;

beforeAll(async () => {
  h = await startDashboardHarness('suspension');
  pages = await startPages(
    loadPagesConfig({ PAGES_PORT: '0', CHECKOUT_GRPC_ADDRESS: h.platform.stack.checkout.address, LOG_LEVEL: 'silent' }),
    createLogger('pages-test', { level: 'silent' }),
  );
}, 120_000);
afterAll(async () => {
  await pages?.stop();
  await h?.stop();
});

async function cli(...args: string[]): Promise<Json> {
  const { code, stdout, stderr } = await h.platform.operator(...args);
  if (code !== 0) throw new Error(`operator ${args.join(' ')} exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as Json;
}

/** A page of the pages server, as a buyer's browser gets it. */
async function view(path: string): Promise<{ status: number; html: string }> {
  const response = await fetch(`${pages.url}${path}`);
  return { status: response.status, html: await response.text() };
}

/** A form post to the pages server, as the buyer's browser sends it. */
async function post(path: string, fields: Record<string, string>): Promise<{ status: number; location: string | null; html: string }> {
  const response = await fetch(`${pages.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

const START = { email: 'buyer@example.com', country: 'US' };

const read = async (merchant: TestMerchant, id: string, key = merchant.testKey): Promise<Json> =>
  bodyOf(await h.platform.request('GET', `/v1/payments/${id}`, { key }));

describe("a suspended account's buyers", () => {
  it('can neither visit nor pay its checkout, nor start, go to a provider or simulate on its pages; the pages say so in words', async () => {
    const shop = await h.merchant();
    const checkout = await cli(
      'checkouts',
      'create',
      shop.accountId,
      '--mode',
      'test',
      '--kind',
      'page',
      '--description',
      'Mug',
      '--currency',
      'USD',
      '--amount',
      '15',
    );
    const chk = String(checkout['id']);
    const link = String(
      (await cli('links', 'create', shop.accountId, '--mode', 'test', '--amount', '9', '--currency', 'USD', '--description', 'Fix'))['id'],
    );
    const fresh = String((await createSession(h.platform, shop.testKey, { amount: '5.00', currency: 'USD', description: 'Cup' }))['id']);
    const started = String((await createSession(h.platform, shop.testKey, { amount: '6.00', currency: 'USD', description: 'Pot' }))['id']);
    expect((await post(`/pay/${started}/start`, START)).location).toBe(`/pay/${started}`);
    expect((await view(`/c/${chk}`)).html).not.toContain(CANNOT_PAY);

    expect((await h.platform.operator('accounts', 'suspend', shop.accountId)).code).toBe(0);

    // The checkout: its page and its Pay button answer in words (409, never a 500) and make no payment.
    for (const answer of [await view(`/c/${chk}`), await post(`/c/${chk}/pay`, {})]) {
      expect(answer.status).toBe(409);
      expect(answer.html).toContain(CANNOT_PAY);
    }
    // The payment link: its page says so and offers nothing; its tracking page does not send the buyer to pay.
    const linkPage = await view(`/pay/${link}`);
    expect([linkPage.status, linkPage.html.includes(CANNOT_PAY), linkPage.html.includes('name="email"')]).toEqual([200, true, false]);
    const tracking = await view(`/track/${link}`);
    expect(tracking.html).toContain(CANNOT_PAY);
    expect(tracking.html).not.toContain(`href="/pay/${link}"`);
    // Start, provider and the Test outcome buttons: each sent back to the page, which says why.
    expect((await post(`/pay/${fresh}/start`, START)).location).toBe(`/pay/${fresh}`);
    expect((await post(`/pay/${link}/start`, START)).location).toBe(`/pay/${link}`);
    const startedPage = await view(`/pay/${started}`);
    expect(startedPage.html).toContain(CANNOT_PAY);
    expect(startedPage.html).not.toContain('Simulate paid');
    expect(startedPage.html).not.toContain('Pay with');
    expect((await post(`/pay/${started}/provider`, { provider: 'cardrail' })).location).toBe(`/pay/${started}`);
    expect((await post(`/pay/${started}/simulate`, { outcome: 'paid' })).location).toBe(`/pay/${started}`);
    expect(await view(`/pay/${started}/status`)).toEqual({ status: 200, html: JSON.stringify({ state: 'unavailable' }) });

    // Nothing moved (read once the account is active again: its keys are refused while it is suspended).
    expect((await h.platform.request('GET', `/v1/payments/${fresh}`, { key: shop.testKey })).status).toBe(403);
    expect((await h.platform.operator('accounts', 'reactivate', shop.accountId)).code).toBe(0);
    expect(await read(shop, fresh)).toMatchObject({ status: 'open', started_at: null });
    expect(await read(shop, link)).toMatchObject({ status: 'open', started_at: null });
    expect(await read(shop, started)).toMatchObject({ status: 'open', provider: null, paid_at: null });
    const listed = (await bodyOf(await h.platform.request('GET', '/v1/payments?limit=100', { key: shop.testKey })))['data'] as Json[];
    expect(listed.map((p) => p['id']).sort()).toEqual([fresh, started, link].sort());
    // Active again, the same pages take payments again.
    expect((await view(`/c/${chk}`)).status).toBe(200);
    expect((await post(`/pay/${started}/simulate`, { outcome: 'paid' })).location).toBe(`/pay/${started}`);
    expect(await read(shop, started)).toMatchObject({ status: 'paid' });
  });

  it('still get a payment that was already on its way settled: a Live payment started before the suspension is paid to the wallet', async () => {
    const shop = await h.merchant();
    const id = String((await createSession(h.platform, shop.liveKey, { amount: '10.00', currency: 'USD', description: 'Lamp' }))['id']);
    expect((await post(`/pay/${id}/start`, START)).location).toBe(`/pay/${id}`);
    expect((await h.platform.operator('accounts', 'suspend', shop.accountId)).code).toBe(0);
    await cli('emulator', 'pay', shop.accountId, id, '--mode', 'live', '--amount', '10');
    const { code, stdout } = await h.platform.operator('payments', 'timeline', shop.accountId, id, '--mode', 'live');
    expect(code).toBe(0);
    const lines = JSON.parse(stdout) as { kind: string; detail: Json }[];
    expect(lines.find((l) => l.kind === 'forwarded')!.detail).toMatchObject({ forwarded_to: WALLET });
    // The buyer's page follows it to the end, though the shop is suspended.
    await eventually(
      async () => (await view(`/pay/${id}`)).html,
      (html) => html.includes('Payment received'),
    );
    expect((await h.platform.operator('accounts', 'reactivate', shop.accountId)).code).toBe(0);
    const paid = await eventually(
      () => read(shop, id, shop.liveKey),
      (p) => p['status'] !== 'open',
    );
    expect(paid).toMatchObject({ status: 'paid', settlement: { payout_wallet: WALLET, value_coin: '10.000000' } });
  });
});

async function submit(page: Page, button: string): Promise<PlaywrightResponse> {
  const [response] = await Promise.all([
    page.waitForResponse((r: PlaywrightResponse) => r.request().method() === 'POST'),
    page.getByRole('button', { name: button }).click(),
  ]);
  return response;
}

describe("a suspended account's dashboard", () => {
  it('refuses to save a payout wallet or make an API key, says so on the page, and changes nothing; the operator may fix the wallet', async () => {
    const shop = await h.merchant();
    const keysBefore = (await h.platform.operations.listKeys(shop.accountId)).length;
    const page = await h.signedIn(shop);
    await walk('suspended-settings-and-keys', page, async () => {
      expect((await h.platform.operator('accounts', 'suspend', shop.accountId)).code).toBe(0);

      await page.goto('/dashboard/live/settings');
      await page.getByLabel(/Wallet address/).fill('0x6666666666666666666666666666666666666666');
      // Re-authenticated (issue 35 item 9), so the refusal is the suspension's, not the password's.
      await page.getByLabel('Your password').fill(shop.password);
      expect((await submit(page, 'Save wallet')).status()).toBe(403);
      await expect(page.getByRole('alert').textContent()).resolves.toContain('This account is suspended');

      await page.goto('/dashboard/test/developers');
      await page.getByLabel('Label for a new key (optional)').fill('Refused');
      await Promise.all([page.waitForURL(/\/dashboard\/test\/developers$/), page.getByRole('button', { name: 'Create Test key' }).click()]);
      await expect(page.getByRole('status').filter({ hasText: 'suspended' }).textContent()).resolves.toContain(
        'no new API key can be made',
      );
      await expect(page.getByRole('heading', { name: 'API key created' }).count()).resolves.toBe(0);
    });
    expect(await h.platform.operations.getAccount(shop.accountId)).toMatchObject({ status: 'suspended', payoutWallet: WALLET });
    expect(await h.platform.operations.listKeys(shop.accountId)).toHaveLength(keysBefore);
    // The operator's CLI may fix a suspended account's wallet before reactivating it (ADR 0037).
    expect(await cli('accounts', 'set-payout-wallet', shop.accountId, '0x6666666666666666666666666666666666666666')).toMatchObject({
      status: 'suspended',
      payout_wallet: '0x6666666666666666666666666666666666666666',
    });
    expect(await h.platform.operator('keys', 'create', shop.accountId, '--mode', 'test')).toMatchObject({ code: 1 });
  });
});
