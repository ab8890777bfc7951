// Risk covered: the dashboard's sessions and forms handing an attacker a way in — a session id the
// attacker chose or already holds surviving sign-in or the second factor (fixation), a session that
// outlives sign-out or its lifetime, a form of any route accepted without this session's token or
// from another site (CSRF; sign-in and sign-out too), a one-time set-password link setting a password
// twice (again later, or twice at once) or after 24 hours, an authenticator code used twice, and
// pages that can be framed, cached or read cross-origin. dashboard-sign-in.e2e covers the basics
// (cookie flags, sign-out, lock-out, a cross-origin wallet post, a link used once, a replayed code);
// this file the attacks around them. All over HTTP with the real dashboard, as a browser sends it.
// docs/security.md, "Dashboard sessions and CSRF".
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import { secretBoxFromEnv } from '@hc/secrets';
import { TEST_SECRETS_ENCRYPTION_KEYS } from '@hc/test-kit';
import {
  csrfOf,
  declaredRoutes,
  getPage,
  postForm,
  signInOverHttp,
  startSecurityHarness,
  type DashboardMerchant,
  type HttpSession,
  type SecurityHarness,
} from './security-harness.ts';
import { unixSeconds } from '@hc/conversions';

let h: SecurityHarness;

beforeAll(async () => {
  h = await startSecurityHarness('session', { browser: false });
}, 180_000);
afterAll(async () => {
  await h?.stop();
});

const cookieOf = (response: Response): string | undefined => /hc_dashboard=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1];

/** Whether a cookie opens a signed-in page (200), rather than sending the browser to sign in or the code form. */
async function signedIn(cookie: string): Promise<boolean> {
  return (await getPage(h.url, '/dashboard/test/settings', cookie)).status === 200;
}

async function wallet(merchant: DashboardMerchant): Promise<string | null> {
  return (await h.platform.operations.getAccount(merchant.accountId)).payoutWallet;
}

/** The authenticator code for the dashboard's clock now (its clock is the platform's test clock). */
function code(secret: string): Promise<string> {
  return generate({ secret, epoch: unixSeconds(h.platform.clock.now()) });
}

/** Turns two-factor sign-in on for a signed-in session; the seed. */
async function turnOnTwoFactor(session: HttpSession): Promise<string> {
  const begun = await (await postForm(h.url, '/dashboard/two-factor/begin', { _csrf: session.csrf }, session.cookie)).text();
  const secret = /id="totp-secret">([A-Z2-7]+)</.exec(begun)![1]!;
  const confirmed = await postForm(
    h.url,
    '/dashboard/two-factor/confirm',
    { _csrf: session.csrf, code: await code(secret) },
    session.cookie,
  );
  expect(confirmed.status).toBe(303);
  // Each code once: the next one must come from the next 30 s step.
  h.platform.clock.advance(30_000);
  return secret;
}

/** The password step of a two-factor user: the half-signed-in cookie and the token of its code form. */
async function passwordStep(user: { email: string; password: string }): Promise<HttpSession> {
  const response = await postForm(h.url, '/dashboard/sign-in', { email: user.email, password: user.password }, null);
  expect(response.headers.get('location')).toMatch(/^\/dashboard\/sign-in\/code/);
  const cookie = cookieOf(response)!;
  const form = await (await getPage(h.url, '/dashboard/sign-in/code', cookie)).text();
  return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(form)![1]! };
}

describe('session fixation', () => {
  it('a cookie value planted before sign-in is replaced by a new one, and opens nothing', async () => {
    const merchant = await h.merchant();
    const planted = 'P'.repeat(43);
    const response = await postForm(h.url, '/dashboard/sign-in', { email: merchant.email, password: merchant.password }, planted);
    expect(response.status).toBe(303);
    const issued = cookieOf(response);
    expect(issued).toBeDefined();
    expect(issued).not.toBe(planted);
    expect(await signedIn(issued!)).toBe(true);
    expect(await signedIn(planted)).toBe(false);
  });

  it('a live session planted in the browser (another user’s) is ended by signing in through its form, and a new one issued', async () => {
    const [victim, attacker] = await Promise.all([h.merchant(), h.merchant()]);
    const planted = await signInOverHttp(h.url, attacker);
    // The sign-in form as that browser posts it: with the planted session's own token.
    const response = await postForm(
      h.url,
      '/dashboard/sign-in',
      { _csrf: planted.csrf, email: victim.email, password: victim.password },
      planted.cookie,
    );
    expect(response.status).toBe(303);
    const issued = cookieOf(response)!;
    expect(issued).not.toBe(planted.cookie);
    expect(await signedIn(issued)).toBe(true);
    // The planted cookie opens nothing any more: neither the victim's session nor the attacker's.
    expect(await signedIn(planted.cookie)).toBe(false);
    // And the planted session's token is worthless with the new session.
    const forged = await postForm(
      h.url,
      '/dashboard/test/settings/payout-wallet',
      { _csrf: planted.csrf, payout_wallet: '0x6666666666666666666666666666666666666666' },
      issued,
    );
    expect(forged.status).toBe(403);
    expect(await wallet(victim)).not.toBe('0x6666666666666666666666666666666666666666');
  });

  it('a half-signed-in cookie (password known, code not) planted in the victim’s browser is worthless once the victim enters the code', async () => {
    const victim = await h.merchant();
    await turnOnTwoFactor(await signInOverHttp(h.url, victim));
    // The attacker knows the password, not the code: they get a half-signed-in session and plant it.
    const planted = await passwordStep(victim);
    expect(await signedIn(planted.cookie)).toBe(false);
    const secret = await totpSeedOf(victim);
    // The victim, on the code form that cookie shows, enters a current code.
    const passed = await postForm(h.url, '/dashboard/sign-in/code', { _csrf: planted.csrf, code: await code(secret) }, planted.cookie);
    expect(passed.status).toBe(303);
    expect(passed.headers.get('location')).toMatch(/^\/dashboard\/test\/overview/);
    // The planted cookie (which the attacker kept) opens nothing; the victim's browser got a new id.
    expect(await signedIn(planted.cookie)).toBe(false);
    const issued = cookieOf(passed);
    expect(issued).toBeDefined();
    expect(issued).not.toBe(planted.cookie);
    expect(await signedIn(issued!)).toBe(true);
    // And a form token the planted session showed does not work with the new one.
    const forged = await postForm(
      h.url,
      '/dashboard/test/settings/payout-wallet',
      { _csrf: planted.csrf, payout_wallet: '0x6666666666666666666666666666666666666666' },
      issued!,
    );
    expect(forged.status).toBe(403);
  });

  it('a half-signed-in session changes nothing: every post is sent back to the code form', async () => {
    const victim = await h.merchant();
    await turnOnTwoFactor(await signInOverHttp(h.url, victim));
    const half = await passwordStep(victim);
    const before = await wallet(victim);
    const response = await postForm(
      h.url,
      '/dashboard/test/settings/payout-wallet',
      { _csrf: half.csrf, payout_wallet: '0x6666666666666666666666666666666666666666' },
      half.cookie,
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard/sign-in/code');
    const key = await postForm(h.url, '/dashboard/test/developers/keys', { _csrf: half.csrf, label: 'half' }, half.cookie);
    expect(key.headers.get('location')).toBe('/dashboard/sign-in/code');
    expect(await wallet(victim)).toBe(before);
    expect((await h.platform.operations.listKeys(victim.accountId)).some((k) => k.label === 'half')).toBe(false);
  });
});

/** The TOTP seed of a user, opened from its sealed column with the test key (only to compute codes in the test). */
async function totpSeedOf(user: DashboardMerchant): Promise<string> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: h.databases['dashboard']! });
  await client.connect();
  try {
    const row = (await client.query('SELECT id, totp_secret FROM dashboard_users WHERE email = $1', [user.email])).rows[0] as {
      id: string;
      totp_secret: string;
    };
    return secretBoxFromEnv(TEST_SECRETS_ENCRYPTION_KEYS).open(row.totp_secret, {
      table: 'dashboard_users',
      column: 'totp_secret',
      row: String(row.id),
    });
  } finally {
    await client.end();
  }
}

describe('CSRF on every form of the dashboard', () => {
  let victim: DashboardMerchant;
  let session: HttpSession;
  let attacker: HttpSession;
  beforeAll(async () => {
    const [v, a] = await Promise.all([h.merchant(), h.merchant()]);
    victim = v;
    [session, attacker] = await Promise.all([signInOverHttp(h.url, v), signInOverHttp(h.url, a)]);
  });

  const posts = () =>
    declaredRoutes()
      .filter((route) => route.startsWith('POST '))
      .map((route) => {
        const path = route.slice('POST '.length);
        return path.startsWith('/dashboard') ? path : `/dashboard/test${path.replace(':id', 'x_01ARZ3NDEKTSV4RRFFQ69G5FAV')}`;
      });

  it('every post route of the dashboard refuses, for a signed-in victim: no token, another session’s token, another site, another origin', async () => {
    const routes = posts();
    expect(routes.length).toBeGreaterThan(20);
    const beforeWallet = await wallet(victim);
    const beforeKeys = (await h.platform.operations.listKeys(victim.accountId)).length;
    const fields = { payout_wallet: '0x6666666666666666666666666666666666666666', label: 'forged', amount: '5', currency: 'EUR' };
    const answers: string[] = [];
    for (const path of routes) {
      for (const [how, token, headers] of [
        ['no token', undefined, {}],
        ['the attacker’s own token', attacker.csrf, {}],
        ['cross-site', session.csrf, { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
        ['same-site, another origin (another port)', session.csrf, { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:1' }],
        ['no Sec-Fetch-Site, another Origin', session.csrf, { 'sec-fetch-site': '', origin: 'https://evil.example' }],
      ] as const) {
        const plain = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ''));
        const dropped = Object.entries(headers).some(([, value]) => value === '');
        const response = await fetch(`${h.url}${path}`, {
          method: 'POST',
          redirect: 'manual',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            cookie: `hc_dashboard=${session.cookie}`,
            ...(dropped ? {} : { 'sec-fetch-site': 'same-origin', origin: h.url }),
            ...plain,
          },
          body: new URLSearchParams(token === undefined ? fields : { ...fields, _csrf: token }).toString(),
        });
        answers.push(`${path} ${how}: ${response.status}`);
      }
    }
    expect(answers.filter((answer) => !answer.endsWith(': 403'))).toEqual([]);
    expect(await wallet(victim)).toBe(beforeWallet);
    expect((await h.platform.operations.listKeys(victim.accountId)).length).toBe(beforeKeys);
    // Still signed in: the refused sign-out did not end the session.
    expect(await signedIn(session.cookie)).toBe(true);
  });

  it('sign-in from another site is refused (no login CSRF into the attacker’s account)', async () => {
    const attackerUser = await h.merchant();
    const response = await postForm(h.url, '/dashboard/sign-in', { email: attackerUser.email, password: attackerUser.password }, null, {
      'sec-fetch-site': 'cross-site',
      origin: 'https://evil.example',
    });
    expect(response.status).toBe(403);
    expect(cookieOf(response)).toBeUndefined();
  });

  it('pages cannot be framed, cached or read by another origin', async () => {
    for (const path of ['/dashboard/sign-in', '/dashboard/test/developers', '/dashboard/set-password?token=x']) {
      const response = await fetch(`${h.url}${path}`, {
        headers: { cookie: `hc_dashboard=${session.cookie}`, origin: 'https://evil.example' },
      });
      const csp = response.headers.get('content-security-policy') ?? '';
      expect({
        path,
        frames: /frame-ancestors 'none'/.test(csp),
        cache: response.headers.get('cache-control'),
        referrer: response.headers.get('referrer-policy'),
        cors: response.headers.get('access-control-allow-origin'),
      }).toEqual({ path, frames: true, cache: 'no-store', referrer: 'no-referrer', cors: null });
    }
  });
});

describe('sign-out', () => {
  it('ends the session on the server and clears the cookie; its token then opens nothing', async () => {
    const merchant = await h.merchant();
    const session = await signInOverHttp(h.url, merchant);
    const out = await postForm(h.url, '/dashboard/sign-out', { _csrf: session.csrf }, session.cookie);
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/hc_dashboard=;.*Expires=Thu, 01 Jan 1970/);
    expect(await signedIn(session.cookie)).toBe(false);
    const after = await postForm(
      h.url,
      '/dashboard/test/settings/payout-wallet',
      { _csrf: session.csrf, payout_wallet: '0x6666666666666666666666666666666666666666' },
      session.cookie,
    );
    expect(after.status).toBe(403);
    // Signing in again makes a new session with a new token; the old token does not work there either.
    const again = await signInOverHttp(h.url, merchant);
    expect(again.cookie).not.toBe(session.cookie);
    expect(again.csrf).not.toBe(session.csrf);
  });
});

describe('one-time set-password links', () => {
  async function setPassword(token: string, password: string, cookie: string | null = null): Promise<Response> {
    return postForm(h.url, '/dashboard/set-password', { token, password }, cookie);
  }

  it('a used link cannot set the password again, by its page or by a post', async () => {
    const owner = await h.merchant();
    const { email, link } = await h.userWithLink(owner.accountId, `link-reuse-${Date.now()}@shop.example`);
    const token = link.searchParams.get('token')!;
    expect((await setPassword(token, 'the first long passphrase')).status).toBe(303);
    expect((await getPage(h.url, `/dashboard/set-password${link.search}`, null)).status).toBe(410);
    // Someone who saw the link later (mail archive, browser history) posts it again.
    expect((await setPassword(token, 'the attacker long passphrase')).status).toBe(410);
    await expect(signInOverHttp(h.url, { email, password: 'the attacker long passphrase' })).rejects.toThrow(/401/);
    await signInOverHttp(h.url, { email, password: 'the first long passphrase' });
  });

  it('two posts of one link at once set the password once', async () => {
    const owner = await h.merchant();
    const { email, link } = await h.userWithLink(owner.accountId, `link-race-${Date.now()}@shop.example`);
    const token = link.searchParams.get('token')!;
    const answers = await Promise.all([setPassword(token, 'first racing passphrase'), setPassword(token, 'second racing passphrase')]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 410]);
    const winner = answers[0]!.status === 303 ? 'first racing passphrase' : 'second racing passphrase';
    const loser = winner.startsWith('first') ? 'second racing passphrase' : 'first racing passphrase';
    await signInOverHttp(h.url, { email, password: winner });
    await expect(signInOverHttp(h.url, { email, password: loser })).rejects.toThrow(/401/);
  });

  it('a link past its 24 hours sets nothing; a made-up token neither', async () => {
    const owner = await h.merchant();
    const { email, link } = await h.userWithLink(owner.accountId, `link-expired-${Date.now()}@shop.example`);
    h.platform.clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect((await setPassword(link.searchParams.get('token')!, 'a late long passphrase')).status).toBe(410);
    expect((await setPassword('A'.repeat(43), 'a made up long passphrase')).status).toBe(410);
    await expect(signInOverHttp(h.url, { email, password: 'a late long passphrase' })).rejects.toThrow(/401/);
  });
});

describe('authenticator codes are used once', () => {
  it('the code that turned two-factor on, a sign-in code used again in a second browser at the same moment, and a sign-in code to turn it off are refused', async () => {
    const user = await h.merchant();
    const session = await signInOverHttp(h.url, user);
    const begun = await (await postForm(h.url, '/dashboard/two-factor/begin', { _csrf: session.csrf }, session.cookie)).text();
    const secret = /id="totp-secret">([A-Z2-7]+)</.exec(begun)![1]!;
    const confirming = await code(secret);
    expect((await postForm(h.url, '/dashboard/two-factor/confirm', { _csrf: session.csrf, code: confirming }, session.cookie)).status).toBe(
      303,
    );
    // The confirming code, straight away at sign-in: used.
    const first = await passwordStep(user);
    expect((await postForm(h.url, '/dashboard/sign-in/code', { _csrf: first.csrf, code: confirming }, first.cookie)).status).toBe(401);
    // Next step: one code, two half-signed-in browsers at once — one of them gets in.
    h.platform.clock.advance(30_000);
    const [a, b] = await Promise.all([passwordStep(user), passwordStep(user)]);
    const fresh = await code(secret);
    const both = await Promise.all(
      [a, b].map((half) => postForm(h.url, '/dashboard/sign-in/code', { _csrf: half.csrf, code: fresh }, half.cookie)),
    );
    expect(both.map((r) => r.status).sort()).toEqual([303, 401]);
    // And that same code cannot turn two-factor off from the signed-in session.
    const signed = both.find((r) => r.status === 303)!;
    const cookie = cookieOf(signed) ?? (both[0]!.status === 303 ? a.cookie : b.cookie);
    const csrf = await csrfOf(h.url, cookie);
    const off = await postForm(h.url, '/dashboard/two-factor/disable', { _csrf: csrf, code: fresh }, cookie);
    expect(off.status).toBe(400);
    expect(await totpSeedOf(user)).toBe(secret);
  });
});

describe('session lifetime', () => {
  it('a session unused for 12 hours has ended; one used all along ends 7 days after sign-in', async () => {
    const merchant = await h.merchant();
    const idle = await signInOverHttp(h.url, merchant);
    const busy = await signInOverHttp(h.url, merchant);
    h.platform.clock.advance(11 * 60 * 60 * 1000);
    expect(await signedIn(busy.cookie)).toBe(true);
    h.platform.clock.advance(60 * 60 * 1000 + 1000);
    expect(await signedIn(idle.cookie)).toBe(false);
    expect(await signedIn(busy.cookie)).toBe(true);
    // Used every 11 hours: alive until the 7th day after sign-in, and not a moment after.
    for (let hours = 12; hours + 11 < 7 * 24; hours += 11) {
      h.platform.clock.advance(11 * 60 * 60 * 1000);
      expect(await signedIn(busy.cookie)).toBe(true);
    }
    h.platform.clock.advance(11 * 60 * 60 * 1000);
    expect(await signedIn(busy.cookie)).toBe(false);
  });
});

// Issue 35 findings in this area are tested beside their fixes (docs/security.md, "Issue 35 findings"):
// (d) code guessing: dashboard-sign-in-limits.e2e and services/dashboard second-factor-limits.int;
// (f) next=: dashboard-sign-in-limits.e2e; (i) wallet re-authentication: dashboard-wallet-change.e2e;
// (b) suspension: suspension.e2e; (c) X-Forwarded-For: services/pages front-router.int.
