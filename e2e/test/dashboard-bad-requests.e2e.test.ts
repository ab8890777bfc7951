// Risk covered: the dashboard answering 500 to what a person or a crafted link can send (issue 35
// item 8) — a list cursor of another account or of nothing, prototype names (`__proto__`) in any
// filter, setting up two-factor when it is already on, an oversized or unreadable form, an address
// that does not decode, a ping or resend to an endpoint disabled meanwhile. Each must be a 4xx plain
// page or a notice. Real platform, dashboard server and Chromium.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { eventually } from '@hc/test-kit';
import { startDashboardHarness, walk, type DashboardHarness, type DashboardMerchant } from './dashboard-harness.ts';
import { unixSeconds } from '@hc/conversions';

let h: DashboardHarness;
let shop: DashboardMerchant;
let other: DashboardMerchant;
// Its walks start the operator CLI (a Node process each) and a browser: on a loaded machine one test can
// take longer than jest's 30 s without anything being wrong (two CI rehearsals timed out here, none failed).
jest.setTimeout(90_000);

beforeAll(async () => {
  h = await startDashboardHarness('bad-requests');
  [shop, other] = await Promise.all([h.merchant(), h.merchant()]);
}, 120_000);
afterAll(async () => {
  await h?.stop();
});

interface Browser {
  readonly page: Page;
  get(path: string): Promise<Response>;
  post(path: string, body: string, headers?: Record<string, string>): Promise<Response>;
}

/** A signed-in browser, and requests made by hand with its cookie and form token. */
async function signedIn(user: DashboardMerchant): Promise<Browser> {
  const page = await h.signedIn(user);
  const [cookie] = await page.context().cookies();
  await page.goto('/dashboard/test/settings');
  const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
  const headers = { cookie: `hc_dashboard=${cookie!.value}`, origin: h.url };
  return {
    page,
    get: (path) => fetch(`${h.url}${path}`, { redirect: 'manual', headers }),
    post: (path, body, extra = {}) =>
      fetch(`${h.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', ...extra },
        body: `_csrf=${encodeURIComponent(csrf)}&${body}`,
      }),
  };
}

/** A page of ours (the layout's HTML, with `words`) with the status, never Express's own or a stack. */
async function plainPage(response: Response, status: number, words: RegExp): Promise<void> {
  const body = await response.text();
  expect({ status: response.status, type: response.headers.get('content-type') }).toEqual({ status, type: 'text/html; charset=utf-8' });
  expect(body).toMatch(words);
  expect(body).toContain('<h1>');
  expect(body).not.toMatch(/\bat .*\.ts:\d+/);
}

async function operatorJson(...args: string[]): Promise<{ id: string }> {
  const run = await h.platform.operator(...args);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as { id: string };
}

describe('list cursors and filters', () => {
  it('the events list with another account’s, a garbage or a prototype-named starting_after is a 400 page, as every list is', async () => {
    const theirs = await operatorJson(
      'webhooks',
      'endpoints',
      'add',
      other.accountId,
      '--mode',
      'test',
      '--url',
      'http://127.0.0.1:9/hook',
    );
    const theirEvent = await operatorJson('webhooks', 'ping', other.accountId, theirs.id, '--mode', 'test');
    const theirPayment = await h.platform.request('POST', '/v1/checkout_sessions', {
      key: other.testKey,
      body: { amount: '5.00', currency: 'usd', description: 'Theirs' },
    });
    const paymentId = ((await theirPayment.json()) as { id: string }).id;
    const b = await signedIn(shop);
    for (const cursor of [theirEvent.id, 'garbage', '__proto__', 'constructor'])
      await plainPage(await b.get(`/dashboard/test/developers/events?starting_after=${cursor}`), 400, /No such page/);
    // The other lists answer the same for another account's id.
    await plainPage(await b.get(`/dashboard/test/payments?starting_after=${paymentId}`), 400, /No such page/);
    await plainPage(await b.get(`/dashboard/test/customers?starting_after=__proto__`), 400, /No such page/);
    await plainPage(await b.get(`/dashboard/test/links?after=${paymentId}`), 400, /No such page/);
    // The first page still works.
    expect((await b.get('/dashboard/test/developers/events')).status).toBe(200);
  });

  it('prototype names in any filter or parameter answer a page, never a 500', async () => {
    const b = await signedIn(shop);
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '__defineGetter__'];
    const pages = [
      '/dashboard/test/payments?status=NAME',
      '/dashboard/test/payments?q=NAME',
      '/dashboard/test/payments?limit=NAME',
      '/dashboard/test/payments?NAME=x',
      '/dashboard/test/payments?status=NAME&status=paid',
      '/dashboard/test/payments?starting_after=NAME',
      '/dashboard/test/customers?email=NAME',
      '/dashboard/test/customers?starting_after=NAME',
      '/dashboard/test/links?after=NAME',
      '/dashboard/test/links?checkouts_after=NAME',
      '/dashboard/test/developers/events?starting_after=NAME',
      '/dashboard/test/developers/events?limit=NAME',
      '/dashboard/two-factor?mode=NAME',
      '/dashboard/sign-in?next=NAME',
      '/dashboard/NAME/payments',
      '/dashboard/test/payments/NAME',
    ];
    const answers: string[] = [];
    for (const name of names)
      for (const path of pages) {
        const response = await b.get(path.replace('NAME', name));
        answers.push(`${response.status >= 500 ? 'FAIL' : 'ok'} ${response.status} ${path.replace('NAME', name)}`);
      }
    expect(answers.filter((line) => line.startsWith('FAIL'))).toEqual([]);
    expect((await b.get('/dashboard/test/payments?status=__proto__')).status).toBe(200);
  });

  it('an address that does not decode is a 400 page', async () => {
    const b = await signedIn(shop);
    await plainPage(await b.get('/dashboard/test/payments/%E0%A4%A'), 400, /Back to the dashboard/);
  });
});

describe('control characters (docs/security.md 47.4)', () => {
  const WALLET = '0x1111111111111111111111111111111111111111';

  it('a NUL or other control character in a filter, an address, the sign-in email, an invite email or the wallet is a 400 page, and leaves no audit line open', async () => {
    const b = await signedIn(shop);
    const before = (await h.platform.operations.getAccount(shop.accountId)).payoutWallet;
    const answers: { what: string; response: Response }[] = [
      { what: 'audit actor filter', response: await b.get('/dashboard/test/audit?actor=ann%00') },
      { what: 'audit action filter', response: await b.get('/dashboard/test/audit?action=%01payment') },
      { what: 'audit CSV filter', response: await b.get('/dashboard/test/audit.csv?actor=%00') },
      { what: 'payments search', response: await b.get('/dashboard/test/payments?email=a%00%40b.example') },
      { what: 'an id in the address', response: await b.get('/dashboard/test/payments/pay_%00') },
      { what: 'invite email', response: await b.post('/dashboard/test/team/invite', 'email=new%00%40shop.example&role=viewer') },
      {
        what: 'payout wallet',
        response: await b.post(
          '/dashboard/test/settings/payout-wallet',
          `payout_wallet=${WALLET}%00&password=${encodeURIComponent(shop.password)}`,
        ),
      },
      {
        what: 'sign-in email',
        response: await fetch(`${h.url}/dashboard/sign-in`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: h.url },
          body: `email=${encodeURIComponent(shop.email)}%00&password=x`,
        }),
      },
    ];
    expect(answers.map(({ what, response }) => `${what}: ${response.status}`)).toEqual(answers.map(({ what }) => `${what}: 400`));
    for (const { response } of answers) await plainPage(response, 400, /control character/);
    expect((await h.platform.operations.getAccount(shop.accountId)).payoutWallet).toBe(before);
    // Nothing was started, so nothing is left `started`.
    const csv = await eventually(
      async () => (await b.get('/dashboard/test/audit.csv?outcome=started')).text(),
      (text) => text.trim().split('\n').length === 1,
    );
    expect(csv.trim().split('\n')).toHaveLength(1);
  });

  it('a note typed on several lines is still taken (tab, line feed and carriage return are text in a form)', async () => {
    const b = await signedIn(shop);
    const response = await b.post('/dashboard/test/team/invite', 'email=&role=viewer%0D%0A');
    expect(response.status).not.toBe(500);
    expect(await response.text()).not.toMatch(/control character/);
  });
});

describe('forms', () => {
  it('an oversized form, one with too many fields and one in an unknown charset are 413 and 415 pages, signed in or not', async () => {
    const b = await signedIn(shop);
    const wallet = '/dashboard/test/settings/payout-wallet';
    await plainPage(await b.post(wallet, `note=${'a'.repeat(40_000)}`), 413, /Back to the dashboard/);
    await plainPage(await b.post(wallet, 'a=b&'.repeat(150)), 413, /Back to the dashboard/);
    await plainPage(
      await b.post(wallet, 'payout_wallet=', { 'content-type': 'application/x-www-form-urlencoded; charset=koi8-r' }),
      415,
      /Back to the dashboard/,
    );
    const signIn = await fetch(`${h.url}/dashboard/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: h.url },
      body: `email=x%40shop.example&password=${'p'.repeat(40_000)}`,
    });
    await plainPage(signIn, 413, /Back to the dashboard/);
    expect((await h.platform.operations.getAccount(shop.accountId)).payoutWallet).not.toBeNull();
  });

  it('setting up two-factor when it is already on says so on the page', async () => {
    const owner = await h.merchant();
    const b = await signedIn(owner);
    await walk('two-factor-twice', b.page, async () => {
      await b.page.goto('/dashboard/two-factor');
      await b.page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      const secret = (await b.page.locator('#totp-secret').textContent())!.trim();
      const code = await generate({ secret, epoch: unixSeconds(h.platform.clock.now()) });
      await b.page.getByLabel('Code from the app').fill(code);
      await b.page.getByRole('button', { name: 'Turn on' }).click();
      await b.page.getByText('Two-factor sign-in is on').first().waitFor();
    });
    // The browser is done: none of its requests can take the session's next notice before we read it.
    await b.page.close();
    // The set-up form posted again (a second tab, a reload): a notice, not a 500.
    const again = await b.post('/dashboard/two-factor/begin?mode=live', '');
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/dashboard/two-factor?mode=live');
    // Read by the same client that posted (the notice is the session's next page, whoever asks first).
    const shown = await b.get('/dashboard/two-factor?mode=live');
    expect(shown.status).toBe(200);
    await expect(shown.text()).resolves.toContain('Two-factor sign-in is already on.');
  });

  it('a ping or resend to an endpoint disabled meanwhile is a notice on its page', async () => {
    const ours = await operatorJson('webhooks', 'endpoints', 'add', shop.accountId, '--mode', 'test', '--url', 'http://127.0.0.1:9/hook');
    const event = await operatorJson('webhooks', 'ping', shop.accountId, ours.id, '--mode', 'test');
    expect((await h.platform.operator('webhooks', 'endpoints', 'disable', shop.accountId, ours.id, '--mode', 'test')).code).toBe(0);
    const b = await signedIn(shop);
    // The notices are read by the client that posted, with the browser closed first (a notice is the
    // session's next page, whoever asks first).
    await b.page.close();
    const ping = await b.post(`/dashboard/test/developers/endpoints/${ours.id}/ping`, '');
    expect(ping.status).toBe(303);
    await expect((await b.get(ping.headers.get('location')!)).text()).resolves.toMatch(/No ping sent: .*disabled/);
    await eventually(
      async () => (await b.get(`/dashboard/test/developers/events/${event.id}`)).status,
      (status) => status === 200,
    );
    const resend = await b.post(`/dashboard/test/developers/events/${event.id}/resend`, `endpoint=${ours.id}`);
    expect(resend.status).toBe(303);
    await expect((await b.get(resend.headers.get('location')!)).text()).resolves.toMatch(/Not resent: .*disabled/);
  });
});
