// Risk covered: the merchant dashboard's front door letting the wrong person in — a guessed password
// (no lock-out), a session that survives sign-out, a form posted from another site (CSRF), a
// set-password link used twice, a second factor that can be skipped or replayed — or cookies a
// script can read; a form that is not UTF-8 read with U+FFFD or raw escapes (issue 35, item 10).
// Real platform, real dashboard server, real Chromium.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generate } from 'otplib';
import type { Response as PlaywrightResponse } from 'playwright-core';
import {
  docScreenshot,
  seriousViolations,
  startDashboardHarness,
  walk,
  type DashboardHarness,
  type DashboardMerchant,
} from './dashboard-harness.ts';
import { unixSeconds } from '@hc/conversions';

let h: DashboardHarness;
let merchant: DashboardMerchant;

beforeAll(async () => {
  h = await startDashboardHarness('signin');
  merchant = await h.merchant();
}, 120_000);
afterAll(async () => {
  await h?.stop();
});

async function postForm(path: string, fields: Record<string, string>, headers: Record<string, string>): Promise<Response> {
  return fetch(`${h.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('sign-in and sign-out', () => {
  it('signs in with the right password into a session cookie no script can read, and signing out ends it on the server', async () => {
    const page = await h.signedIn(merchant);
    await walk('sign-in-out', page, async () => {
      const [cookie] = await page.context().cookies();
      expect(cookie).toMatchObject({ name: 'hc_dashboard', httpOnly: true, sameSite: 'Lax', path: '/dashboard' });
      await page.goto('/dashboard/test/settings');
      await expect(page.getByRole('heading', { name: 'Settings' }).isVisible()).resolves.toBe(true);
      expect(await page.getByText('Test shop').first().isVisible()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await docScreenshot(page, 'dashboard-settings');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/dashboard\/sign-in\?signed-out=1/);
      // The old cookie, replayed by hand, opens nothing: the session is gone server-side.
      const replay = await fetch(`${h.url}/dashboard/test/settings`, {
        redirect: 'manual',
        headers: { cookie: `hc_dashboard=${cookie!.value}` },
      });
      expect(replay.status).toBe(303);
      expect(replay.headers.get('location')).toMatch(/^\/dashboard\/sign-in\?next=/);
    });
  });

  it('refuses a wrong password with one answer for every reason, and locks the email after 5 failures until 15 minutes pass', async () => {
    const locked = await h.merchant();
    const page = await (await h.context()).newPage();
    await walk('lock-out', page, async () => {
      await page.goto('/dashboard/sign-in');
      expect(await seriousViolations(page)).toEqual([]);
      await docScreenshot(page, 'dashboard-sign-in');
      const attempt = async (password: string) => {
        await page.goto('/dashboard/sign-in');
        await page.getByLabel('Email').fill(locked.email);
        await page.getByLabel('Password').fill(password);
        const [response] = await Promise.all([
          page.waitForResponse((r: PlaywrightResponse) => r.request().method() === 'POST'),
          page.getByRole('button', { name: 'Sign in' }).click(),
        ]);
        return response.status();
      };
      for (let i = 0; i < 5; i += 1) expect(await attempt(`wrong password number ${i}`)).toBe(401);
      const problem = await page.getByRole('alert').textContent();
      // Locked: even the right password gets the very same answer.
      expect(await attempt(locked.password)).toBe(401);
      expect(await page.getByRole('alert').textContent()).toBe(problem);
      // An unknown email: the same answer again.
      await page.getByLabel('Email').fill('nobody@shop.example');
      await page.getByLabel('Password').fill(locked.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      expect(await page.getByRole('alert').textContent()).toBe(problem);

      h.platform.clock.advance(16 * 60 * 1000);
      expect(await attempt(locked.password)).toBe(303);
      await page.waitForURL(/\/dashboard\/test\/overview/);
    });
  });
});

describe('form bodies', () => {
  it.each([
    [
      'a raw byte that is not UTF-8',
      Buffer.concat([Buffer.from('email=ann'), Buffer.from([0xff]), Buffer.from('@shop.example&password=x')]),
    ],
    ['percent-encoding that is not UTF-8', Buffer.from('email=ann%FF%40shop.example&password=x')],
  ])('a sign-in form with %s is a 400 page, not a sign-in attempt', async (_label, body) => {
    const response = await fetch(`${h.url}/dashboard/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect([response.status, response.headers.get('content-type')]).toEqual([400, 'text/html; charset=utf-8']);
    await expect(response.text()).resolves.toContain('This address or form could not be read');
  });
});

describe('CSRF', () => {
  let server: Server;
  let evilOrigin: string;
  beforeAll(async () => {
    // Another origin (same host, another port: the same *site*, so SameSite=Lax alone would not stop it).
    server = createServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<!doctype html><title>Win a prize</title><form method="post" action="${h.url}/dashboard/test/settings/payout-wallet">` +
            `<input name="payout_wallet" value="0x6666666666666666666666666666666666666666"><button>Claim</button></form>`,
        );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    evilOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('refuses a signed-in browser’s form posted from another origin, and a post without the session’s token', async () => {
    const victim = await h.merchant();
    const page = await h.signedIn(victim);
    await walk('csrf', page, async () => {
      const before = (await h.platform.operations.getAccount(victim.accountId)).payoutWallet;
      await page.goto(evilOrigin);
      const [response] = await Promise.all([
        page.waitForResponse((r: PlaywrightResponse) => r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Claim' }).click(),
      ]);
      expect(response.status()).toBe(403);
      expect((await h.platform.operations.getAccount(victim.accountId)).payoutWallet).toBe(before);

      // Same origin but no token (a script-less forgery that somehow set Origin right): refused too.
      const [cookie] = await page.context().cookies();
      const headers = { cookie: `hc_dashboard=${cookie!.value}`, origin: h.url };
      const noToken = await postForm(
        '/dashboard/test/settings/payout-wallet',
        { payout_wallet: '0x7777777777777777777777777777777777777777' },
        headers,
      );
      expect(noToken.status).toBe(403);
      const wrongToken = await postForm(
        '/dashboard/test/settings/payout-wallet',
        { payout_wallet: '0x7777777777777777777777777777777777777777', _csrf: 'x'.repeat(43) },
        headers,
      );
      expect(wrongToken.status).toBe(403);
      expect((await h.platform.operations.getAccount(victim.accountId)).payoutWallet).toBe(before);

      // The dashboard's own form works.
      await page.goto('/dashboard/test/settings');
      await page.getByLabel(/Wallet address/).fill('0x8888888888888888888888888888888888888888');
      await page.getByLabel('Your password').fill(victim.password);
      await page.getByRole('button', { name: 'Save wallet' }).click();
      await page.getByText('Payout wallet saved.').waitFor();
      expect((await h.platform.operations.getAccount(victim.accountId)).payoutWallet).toBe('0x8888888888888888888888888888888888888888');
    });
  });
});

describe('users made by the operator', () => {
  it('`operator users create` without a password prints a one-time link that sets it once; the user then signs in', async () => {
    const merchant2 = await h.platform.merchant();
    const email = `new-${Date.now()}@shop.example`;
    const made = await h.platform.operator('users', 'create', merchant2.accountId, '--email', email);
    expect(made.code).toBe(0);
    const user = JSON.parse(made.stdout) as { set_password_url: string; password_set: boolean; account_id: string };
    expect(user).toMatchObject({ password_set: false, account_id: merchant2.accountId });
    const link = new URL(user.set_password_url);
    const page = await (await h.context()).newPage();
    await walk('set-password', page, async () => {
      await page.goto(`/dashboard/set-password${link.search}`);
      await page.getByLabel('New password').fill('short');
      // The browser's own minlength check would stop the post: take it away to see the server's rule.
      await page.locator('#password').evaluate((input: { removeAttribute(name: string): void }) => input.removeAttribute('minlength'));
      await page.getByRole('button', { name: 'Set password' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(/at least 12 characters/);
      await page.getByLabel('New password').fill('a long and unusual passphrase');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.waitForURL(/\/dashboard\/sign-in\?password-set=1/);
      // Used once: the link is dead now.
      const again = await page.goto(`/dashboard/set-password${link.search}`);
      expect(again?.status()).toBe(410);
    });
    await (await h.signedIn({ email, password: 'a long and unusual passphrase' })).close();

    const taken = await h.platform.operator('users', 'create', merchant2.accountId, '--email', email.toUpperCase());
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('email_taken');
    const unknownAccount = await h.platform.operator('users', 'create', 'acct_01JD0000000000000000000000', '--email', 'x@shop.example');
    expect(unknownAccount.code).toBe(1);
    expect(unknownAccount.stderr).toContain('not_found');
  });
});

describe('two-factor sign-in', () => {
  it('once on, sign-in needs a current code from the app; a replayed code and skipping the step get nowhere', async () => {
    const owner = await h.merchant();
    const page = await h.signedIn(owner);
    const codeAt = (secret: string, offsetSteps = 0) => generate({ secret, epoch: unixSeconds(h.platform.clock.now()) + offsetSteps * 30 });
    await walk('two-factor', page, async () => {
      await page.goto('/dashboard/two-factor');
      await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      const secret = (await page.locator('#totp-secret').textContent())!.trim();
      await page.getByLabel('Code from the app').fill('000000');
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByRole('alert').waitFor();
      await page.getByLabel('Code from the app').fill(await codeAt(secret));
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByText('Two-factor sign-in is on').first().waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();

      h.platform.clock.advance(30_000);
      await page.goto('/dashboard/sign-in');
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/dashboard\/sign-in\/code/);
      // Skipping the step: every page sends the half-signed-in session back to the code form.
      await page.goto('/dashboard/test/settings');
      expect(page.url()).toMatch(/\/dashboard\/sign-in\/code/);
      const code = await codeAt(secret);
      await page.getByLabel('Code').fill(code);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(/\/dashboard\/test\/overview/);
      await page.getByRole('button', { name: 'Sign out' }).click();

      // The same code again (within its 30 s): refused, it was used.
      await page.goto('/dashboard/sign-in');
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel('Code').fill(code);
      const [response] = await Promise.all([
        page.waitForResponse((r: PlaywrightResponse) => r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Continue' }).click(),
      ]);
      expect(response.status()).toBe(401);
    });
  });

  it('opened from Live settings, the page leads back to Live settings, also after turning it on', async () => {
    const owner = await h.merchant();
    const page = await h.signedIn(owner);
    await walk('two-factor from live', page, async () => {
      await page.goto('/dashboard/live/settings');
      await page.getByRole('link', { name: 'Manage two-factor sign-in' }).click();
      await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      const secret = (await page.locator('#totp-secret').textContent())!.trim();
      await page.getByLabel('Code from the app').fill(await generate({ secret, epoch: unixSeconds(h.platform.clock.now()) }));
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByText('Two-factor sign-in is on').first().waitFor();
      await page.getByRole('link', { name: 'Back to settings' }).click();
      await page.waitForURL(/\/dashboard\/live\/settings$/);
    });
  });
});
