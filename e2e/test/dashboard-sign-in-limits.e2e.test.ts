// Risk covered: the sign-in's two soft spots found in review (issue 35) — second-factor codes guessed
// without bound because each right password started the failure count afresh, and the turn-off form
// counting no wrong codes (item 4); and `next=` leading a user, fresh from typing a password, out of
// the dashboard by dot segments or encoded slashes to another surface of the same host (item 6).
// Real platform, dashboard server and Chromium.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { generate } from 'otplib';
import type { Page, Response as PlaywrightResponse } from 'playwright-core';
import { startDashboardHarness, walk, type DashboardHarness, type DashboardMerchant } from './dashboard-harness.ts';
import { unixSeconds } from '@hc/conversions';

// Browser walks of several pages: a minute and a half each on a machine running the whole suite.
jest.setTimeout(90_000);

let h: DashboardHarness;
beforeAll(async () => {
  h = await startDashboardHarness('limits');
}, 120_000);
afterAll(async () => {
  await h?.stop();
});

const codeNow = (secret: string) => generate({ secret, epoch: unixSeconds(h.platform.clock.now()) });

/** Turns two-factor on for the signed-in page's user; the secret. */
async function turnOnTwoFactor(page: Page): Promise<string> {
  await page.goto('/dashboard/two-factor');
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const secret = (await page.locator('#totp-secret').textContent())!.trim();
  await page.getByLabel('Code from the app').fill(await codeNow(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByText('Two-factor sign-in is on').first().waitFor();
  h.platform.clock.advance(30_000);
  return secret;
}

/** Sends a form by its button: the status of the answer to the post. */
async function submit(page: Page, button: string): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse((r: PlaywrightResponse) => r.request().method() === 'POST'),
    page.getByRole('button', { name: button }).click(),
  ]);
  return response.status();
}

async function passwordStep(page: Page, user: DashboardMerchant, next = ''): Promise<number> {
  await page.goto(`/dashboard/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  return submit(page, 'Sign in');
}

describe('second-factor codes count towards the sign-in lock', () => {
  it('repeated password and wrong-code cycles lock the email; then even the right password is refused', async () => {
    const owner = await h.merchant();
    const secret = await turnOnTwoFactor(await h.signedIn(owner));
    const page = await (await h.context()).newPage();
    const codeAnswers: number[] = [];
    await walk('code-guessing', page, async () => {
      // Each cycle: the right password, then two wrong codes (or fewer, once the session is ended).
      const ended = () => codeAnswers.at(-1) === 303;
      for (let cycle = 0; cycle < 3 && !ended(); cycle += 1) {
        expect(await passwordStep(page, owner)).toBe(303);
        await page.waitForURL(/\/dashboard\/sign-in\/code/);
        for (let guess = 0; guess < 2 && !ended(); guess += 1) {
          await page.getByLabel('Code').fill(guess % 2 === 0 ? '000000' : '999999');
          codeAnswers.push(await submit(page, 'Continue'));
        }
      }
      // Five wrong codes in all: the fifth locked the email and ended the half-open session.
      expect(codeAnswers).toEqual([401, 401, 401, 401, 303]);
      await page.waitForURL(/\/dashboard\/sign-in\?signed-out=1/);
      expect(await passwordStep(page, owner)).toBe(401);
      h.platform.clock.advance(16 * 60 * 1000);
      expect(await passwordStep(page, owner)).toBe(303);
      await page.getByLabel('Code').fill(await codeNow(secret));
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(/\/dashboard\/test\/overview/);
    });
  });

  it('wrong codes on the turn-off form count too: the fifth locks the email', async () => {
    const owner = await h.merchant();
    const page = await h.signedIn(owner);
    await turnOnTwoFactor(page);
    await walk('turn-off-guessing', page, async () => {
      const answers: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        await page.goto('/dashboard/two-factor');
        await page.getByLabel('A current code, to turn it off').fill('000000');
        answers.push(await submit(page, 'Turn off'));
      }
      expect(answers).toEqual([400, 400, 400, 400, 429]);
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(/wait 15 minutes/);
    });
    const other = await (await h.context()).newPage();
    expect(await passwordStep(other, owner)).toBe(401);
  });
});

describe('next= after sign-in stays in the dashboard', () => {
  const paid = 'pay_01JD0000000000000000000000';
  it.each([
    `/dashboard/../pay/${paid}`,
    `/dashboard/%2e%2e/pay/${paid}`,
    `/dashboard/..%2fpay/${paid}`,
    `/dashboard/..\\pay/${paid}`,
    '//evil.example/dashboard/',
  ])('signing in with next=%s lands on the dashboard’s home', async (next) => {
    const user = await h.merchant();
    const page = await (await h.context()).newPage();
    // Every address the browser went to. (Here nothing serves /pay, so a stray browser would come back
    // to sign-in; behind the front router it would be on the paid page, sent on to the shop's URL.)
    const visited: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) visited.push(new URL(request.url()).pathname);
    });
    await walk('next-hostile', page, async () => {
      expect(await passwordStep(page, user, next)).toBe(303);
      await page.waitForURL(/\/dashboard\/test\/overview/);
      // Signed in already, the sign-in page's own redirect holds to the same rule.
      await page.goto(`/dashboard/sign-in?next=${encodeURIComponent(next)}`);
      expect(new URL(page.url()).pathname).toBe('/dashboard/test/overview');
      expect(visited.filter((path) => !path.startsWith('/dashboard/'))).toEqual([]);
    });
  });

  it('a page of the dashboard is still where sign-in returns to', async () => {
    const user = await h.merchant();
    const page = await (await h.context()).newPage();
    expect(await passwordStep(page, user, '/dashboard/live/x/../customers?email=a%40b.example')).toBe(303);
    await page.waitForURL(/\/dashboard\/live\/customers\?email=a%40b\.example$/);
  });
});
