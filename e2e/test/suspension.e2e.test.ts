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
import { getPage, postForm, signInOverHttp, type HttpSession } from './security-harness.ts';
import { createServiceClient, type PublicCallContext } from '@hc/grpc';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';

const CANNOT_PAY = 'This shop cannot take payments right now';

let h: DashboardHarness;
let pages: RunningPages;

beforeAll(async () => {
  h = await startDashboardHarness('suspension', { notifications: true });
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
      // Refused by the dashboard before accounts is asked (docs/security.md 47.9); accounts refuses
      // it too (services/accounts/test/merchant-admin-grpc.int.test.ts), for the operator CLI and any other caller.
      expect((await submit(page, 'Save wallet')).status()).toBe(403);
      await expect(page.locator('main').textContent()).resolves.toContain('This account is suspended');

      await page.goto('/dashboard/test/developers');
      await page.getByLabel('Label for a new key (optional)').fill('Refused');
      expect((await submit(page, 'Create Test key')).status()).toBe(403);
      await expect(page.locator('main').textContent()).resolves.toContain('This account is suspended');
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

/** The id a page links to, by pattern (the first match's group). */
function idIn(text: string, pattern: RegExp): string {
  const id = pattern.exec(text)?.[1];
  if (!id) throw new Error(`no id matching ${String(pattern)}`);
  return id;
}

/** The lines of the account's audit log, as the owner downloads them. */
async function auditRows(session: HttpSession): Promise<Record<string, string>[]> {
  const text = await (await getPage(h.url, '/dashboard/test/audit.csv', session.cookie)).text();
  const [header, ...lines] = text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n');
  const columns = header!.split(',');
  // The lines this test reads hold no comma, quote or line break inside a cell but before/after.
  return lines.map((line) => Object.fromEntries(columns.map((column, index) => [column, line.split(',')[index] ?? ''])));
}

describe("what a suspended account's dashboard may still change (docs/security.md 47.9)", () => {
  it('invites, role changes, email settings and webhook endpoints are frozen; revoking, disabling and removing stay open; each refusal is in the log', async () => {
    const shop = await h.merchant();
    const session = await signInOverHttp(h.url, shop);
    const post = (path: string, fields: Record<string, string> = {}) =>
      postForm(h.url, path, { _csrf: session.csrf, ...fields }, session.cookie);
    const users = createServiceClient<typeof DashboardUsersService, PublicCallContext>(DashboardUsersService, h.dashboard.grpcAddress, {
      timeoutMs: 30_000,
    });
    const teammate = `teammate-${Date.now()}@shop.example`;
    await users.createUser(
      { accountId: shop.accountId, email: teammate, password: 'correct horse battery staple 42', role: 'viewer' },
      { requestId: 'req_test' },
    );
    users.close();
    const base = '/dashboard/test';
    const endpoint = idIn(
      await (await post(`${base}/developers/endpoints`, { url: 'http://127.0.0.1:9/hook', description: 'Orders', scope: 'all' })).text(),
      /\/developers\/endpoints\/(we_[0-9A-Za-z]+)"/,
    );
    expect((await post(`${base}/developers/keys`, { label: 'To revoke' })).status).toBe(200);
    const key = idIn(await (await getPage(h.url, `${base}/developers`, session.cookie)).text(), /\/developers\/keys\/([^/"]+)\/revoke/);
    // The teammate's row: its email, then its Remove link.
    const user = idIn(
      await (await getPage(h.url, `${base}/team`, session.cookie)).text(),
      new RegExp(`${teammate.replace(/[.]/g, '\\.')}[\\s\\S]*?/team/(usr_[0-9A-Za-z]+)/remove`),
    );
    const emails = { alert_address: 'alerts@shop.example', receipts_enabled: 'on', alert_payment_held: 'on' };
    expect((await post(`${base}/settings/emails`, emails)).status).toBe(303);

    expect((await h.platform.operator('accounts', 'suspend', shop.accountId)).code).toBe(0);
    const frozen: [string, Record<string, string>][] = [
      [`${base}/team/invite`, { email: `new-${Date.now()}@shop.example`, role: 'admin' }],
      [`${base}/team/${user}/role`, { role: 'owner' }],
      [`${base}/settings/emails`, { alert_address: 'thief@evil.example', receipts_enabled: 'on' }],
      // The brand buyers see (docs/adr/0096): a suspended shop's pages do not change their look.
      [`${base}/settings/brand`, { accent_colour: '#000000' }],
      [`${base}/developers/endpoints`, { url: 'https://evil.example/hook', description: 'Thief', scope: 'all' }],
      [`${base}/developers/endpoints/${endpoint}`, { url: 'https://evil.example/hook', description: 'Thief', scope: 'all' }],
      [`${base}/developers/endpoints/${endpoint}/rotate`, {}],
    ];
    const answers: string[] = [];
    for (const [path, fields] of frozen) {
      const response = await post(path, fields);
      answers.push(
        `${path}: ${response.status} ${(await response.text()).includes('This account is suspended') ? 'says suspended' : 'says nothing'}`,
      );
    }
    expect(answers).toEqual(frozen.map(([path]) => `${path}: 403 says suspended`));
    // Enabling comes after disabling, which stays open: the endpoint stays disabled.
    expect((await post(`${base}/developers/endpoints/${endpoint}/disable`)).status).toBe(303);
    const enable = await post(`${base}/developers/endpoints/${endpoint}/enable`);
    expect(enable.status).toBe(403);
    expect((await post(`${base}/developers/keys/${key}/revoke`)).status).toBe(303);
    expect((await post(`${base}/team/${user}/remove`)).status).toBe(303);

    // Nothing frozen changed: the email settings, the endpoint's address, the team.
    const settingsPage = await (await getPage(h.url, `${base}/settings/emails`, session.cookie)).text();
    expect(settingsPage).toContain('alerts@shop.example');
    expect(settingsPage).not.toContain('thief@evil.example');
    const endpointPage = await (await getPage(h.url, `${base}/developers/endpoints/${endpoint}`, session.cookie)).text();
    expect(endpointPage).toContain('http://127.0.0.1:9/hook');
    expect(endpointPage).not.toContain('evil.example');
    expect(await (await getPage(h.url, `${base}/team`, session.cookie)).text()).not.toContain(teammate);

    const rows = await eventually(
      () => auditRows(session),
      (found) => found.filter((row) => row['outcome'] === 'refused' && row['status'] === '403').length >= frozen.length + 1,
    );
    expect(
      rows
        .filter((row) => row['outcome'] === 'refused')
        .map((row) => row['action'])
        .sort(),
    ).toEqual(
      [
        'brand.change',
        'endpoint.create',
        'endpoint.enable',
        'endpoint.rotate_secret',
        'endpoint.update',
        'notifications.change',
        'team.change_role',
        'team.invite',
      ].sort(),
    );
  });

  it('a change of the email settings is in the log with its values before and after', async () => {
    const shop = await h.merchant();
    const session = await signInOverHttp(h.url, shop);
    const fields = { alert_address: 'alerts@shop.example', receipts_enabled: 'on', alert_payment_held: 'on' };
    expect((await postForm(h.url, '/dashboard/test/settings/emails', { _csrf: session.csrf, ...fields }, session.cookie)).status).toBe(303);
    const text = await eventually(
      async () => (await getPage(h.url, '/dashboard/test/audit.csv?action=notifications.change', session.cookie)).text(),
      (found) => found.includes(',done,'),
    );
    expect(text).toContain(',done,303,');
    expect(text).toMatch(
      /receipts_enabled (on|off), test_receipts_enabled off, alert_payment_held (on|off), alert_webhook_failing (on|off), alert_late_payment (on|off), alert_address \(none\)/,
    );
    expect(text).toContain(
      'receipts_enabled on, test_receipts_enabled off, alert_payment_held on, alert_webhook_failing off, alert_late_payment off, alert_address alerts@shop.example',
    );
  });
});
