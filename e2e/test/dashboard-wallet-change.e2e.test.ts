// Risk covered: the payout wallet — where the money goes — changed by whoever holds a signed-in
// browser, with nobody told (issue 35 item 9). The form must want the current password (and, with
// two-factor on, a current code), wrong ones counting towards the sign-in lock, and every user of the
// account must see a notice of the change until they dismiss it. Real platform, dashboard, Chromium.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import type { Page, Response as PlaywrightResponse } from 'playwright-core';
import { createServiceClient, type PublicCallContext } from '@hc/grpc';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';
import {
  PASSWORD,
  docScreenshot,
  seriousViolations,
  startDashboardHarness,
  walk,
  type DashboardHarness,
  type DashboardMerchant,
} from './dashboard-harness.ts';
import { unixSeconds } from '@hc/conversions';

const NEW_WALLET = '0x5555555555555555555555555555555555555555';
const THIEF_WALLET = '0x6666666666666666666666666666666666666666';

let h: DashboardHarness;
beforeAll(async () => {
  h = await startDashboardHarness('wallet');
}, 120_000);
afterAll(async () => {
  await h?.stop();
});

/** A second user of the merchant's account, made as `operator users create --password-stdin` does. */
async function colleagueOf(merchant: DashboardMerchant): Promise<{ email: string; password: string }> {
  const users = createServiceClient<typeof DashboardUsersService, PublicCallContext>(DashboardUsersService, h.dashboard.grpcAddress, {
    timeoutMs: 30_000,
  });
  const email = `colleague-${Date.now()}@shop.example`;
  await users.createUser({ accountId: merchant.accountId, email, password: PASSWORD }, { requestId: 'req_test' });
  users.close();
  return { email, password: PASSWORD };
}

/** Fills the wallet form and sends it: the status of the answer to the post. */
async function saveWallet(page: Page, fields: { wallet: string; password: string; code?: string }): Promise<number> {
  await page.goto('/dashboard/test/settings');
  await page.getByLabel(/Wallet address/).fill(fields.wallet);
  await page.getByLabel('Your password').fill(fields.password);
  if (fields.code !== undefined) await page.getByLabel('Code from your authenticator app').fill(fields.code);
  const [response] = await Promise.all([
    page.waitForResponse((r: PlaywrightResponse) => r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Save wallet' }).click(),
  ]);
  return response.status();
}

const walletOf = async (merchant: DashboardMerchant) => (await h.platform.operations.getAccount(merchant.accountId)).payoutWallet;
const notices = (page: Page) => page.getByRole('region', { name: 'Security notices' });

describe('changing the payout wallet', () => {
  it('is refused with a wrong password and done with the right one; every user of the account then sees a notice until they dismiss it', async () => {
    const owner = await h.merchant();
    const colleague = await colleagueOf(owner);
    const stranger = await h.merchant();
    const before = await walletOf(owner);
    const page = await h.signedIn(owner);
    await walk('wallet-change', page, async () => {
      expect(await saveWallet(page, { wallet: THIEF_WALLET, password: 'not my password at all' })).toBe(401);
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(/password or code is not right/);
      await expect(page.getByLabel('Your password').getAttribute('aria-invalid')).resolves.toBe('true');
      expect(await walletOf(owner)).toBe(before);
      // An empty password is no better (the browser's required check taken away, as a script would).
      await page
        .getByLabel('Your password')
        .evaluate((input: { removeAttribute(name: string): void }) => input.removeAttribute('required'));
      await page.getByLabel(/Wallet address/).fill(THIEF_WALLET);
      await page.getByRole('button', { name: 'Save wallet' }).click();
      await page.getByRole('alert').waitFor();
      expect(await walletOf(owner)).toBe(before);

      // The right password and an address the gateway refuses: nothing changed, so no notice either.
      expect(await saveWallet(page, { wallet: '0x1234', password: owner.password })).toBe(400);
      await expect(page.getByLabel(/Wallet address/).getAttribute('aria-invalid')).resolves.toBe('true');
      expect(await notices(page).count()).toBe(0);

      expect(await saveWallet(page, { wallet: NEW_WALLET, password: owner.password })).toBe(303);
      await page.getByText('Payout wallet saved.').waitFor();
      expect(await walletOf(owner)).toBe(NEW_WALLET);
      // The one who changed it is told too (it may have been someone else in their browser).
      await expect(notices(page).textContent()).resolves.toContain(`from ${before} to ${NEW_WALLET} by ${owner.email}`);
    });

    const other = await h.signedIn(colleague);
    await walk('wallet-notice', other, async () => {
      const text = (await notices(other).textContent())!;
      expect(text).toMatch(
        new RegExp(
          `The payout wallet was changed from ${before} to ${NEW_WALLET} by ${owner.email.replace(/[.+]/g, '\\$&')} at \\d+ \\w+ \\d{4}, \\d\\d:\\d\\d UTC`,
        ),
      );
      expect(await seriousViolations(other)).toEqual([]);
      await docScreenshot(other, 'dashboard-wallet-notice');
      await other.goto('/dashboard/test/customers');
      await notices(other).getByRole('button', { name: 'Dismiss' }).click();
      await other.waitForURL(/\/dashboard\/test\/customers$/);
      expect(await notices(other).count()).toBe(0);
      await other.goto('/dashboard/live/payments');
      expect(await notices(other).count()).toBe(0);
    });
    // Dismissed for that user only: the owner still sees it (one notice: the refused address made
    // none); another account's user never did.
    await page.goto('/dashboard/test/payments');
    expect(await notices(page).locator('.notice').count()).toBe(1);
    const outsider = await h.signedIn(stranger);
    expect(await notices(outsider).count()).toBe(0);
  });

  it('with two-factor on also wants a current code, and wrong answers count towards the sign-in lock', async () => {
    const owner = await h.merchant();
    const page = await h.signedIn(owner);
    const code = (secret: string) => generate({ secret, epoch: unixSeconds(h.platform.clock.now()) });
    let secret = '';
    await walk('wallet-two-factor', page, async () => {
      await page.goto('/dashboard/two-factor');
      await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      secret = (await page.locator('#totp-secret').textContent())!.trim();
      await page.getByLabel('Code from the app').fill(await code(secret));
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByText('Two-factor sign-in is on').first().waitFor();
      h.platform.clock.advance(30_000);

      const before = await walletOf(owner);
      // The right password without the right code: refused, and counted.
      expect(await saveWallet(page, { wallet: THIEF_WALLET, password: owner.password, code: '000000' })).toBe(401);
      expect(await walletOf(owner)).toBe(before);
      expect(await saveWallet(page, { wallet: NEW_WALLET, password: owner.password, code: await code(secret) })).toBe(303);
      expect(await walletOf(owner)).toBe(NEW_WALLET);

      // Four more wrong answers make five: the email is locked, for sign-in as for this form.
      const answers: number[] = [];
      for (let i = 0; i < 4; i += 1)
        answers.push(await saveWallet(page, { wallet: THIEF_WALLET, password: `guess ${i} of the password`, code: '000000' }));
      expect(answers).toEqual([401, 401, 401, 429]);
      h.platform.clock.advance(30_000);
      expect(await saveWallet(page, { wallet: THIEF_WALLET, password: owner.password, code: await code(secret) })).toBe(429);
      expect(await walletOf(owner)).toBe(NEW_WALLET);
    });
    const fresh = await (await h.context()).newPage();
    await fresh.goto('/dashboard/sign-in');
    await fresh.getByLabel('Email').fill(owner.email);
    await fresh.getByLabel('Password').fill(owner.password);
    const [response] = await Promise.all([
      fresh.waitForResponse((r: PlaywrightResponse) => r.request().method() === 'POST'),
      fresh.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(response.status()).toBe(401);
  });
});
