// Risk covered: a secret readable from what the platform keeps — a copy of any service's database, a
// message on the bus, or a log line — being enough to act as a merchant: an API key (used on the
// API), a dashboard password, a one-time set-password link, a session cookie, an authenticator seed
// or a webhook signing secret. After making one of each the way merchants and operators do (keys by
// the operator and in the dashboard, passwords set directly and through the link, a link left unused,
// signed-in sessions, two-factor turned on, an endpoint added and its secret rotated), every row of
// every table of every service database, every message of every stream and every log line of every
// service (at trace level) is searched for each plaintext; what is stored instead is checked to be
// the promised hash (SHA-256 for keys, links and sessions; argon2id for passwords).
// docs/security.md, "Secrets at rest".
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import pg from 'pg';
import { everyRowOf, everyStreamMessage } from './e2e-helpers.ts';
import { PASSWORD, sessionCookie, startSecurityHarness, walk, type DashboardMerchant, type SecurityHarness } from './security-harness.ts';
import { unixSeconds } from '@hc/conversions';

let h: SecurityHarness;
let shop: DashboardMerchant;

/** Every secret the run made, by kind: what must never be found in plaintext. */
const made = {
  apiKeys: [] as string[],
  passwords: [PASSWORD, 'a long and unusual passphrase for the link'],
  setPasswordTokens: [] as string[],
  sessionCookies: [] as string[],
  totpSeeds: [] as string[],
  endpointSecrets: [] as string[],
};

/** Everything kept, as one text per place. */
let kept: Record<string, string>;

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
const sha256Base64Url = (value: string) => createHash('sha256').update(value).digest('base64url');

async function rows<T>(databaseUrl: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The places where `secret` (or, for a key, its random part) is found. */
function foundIn(secret: string): string[] {
  const needles = [secret];
  // sk_test_<32 random>: the random part alone would be as good as the key.
  const random = /^sk_(?:test|live)_(.+)$/.exec(secret)?.[1];
  if (random) needles.push(random);
  // whsec_<base64>: the base64 is the signing key itself.
  const key = /^whsec_(.+)$/.exec(secret)?.[1];
  if (key) needles.push(key);
  return Object.entries(kept)
    .filter(([, text]) => needles.some((needle) => text.includes(needle)))
    .map(([place]) => place);
}

beforeAll(async () => {
  h = await startSecurityHarness('secrets', { captureLogs: true });
  shop = await h.merchant();
  made.apiKeys.push(shop.testKey, shop.liveKey);

  // A key made in the dashboard (shown once), a webhook endpoint (its secret shown once) and a rotation.
  const page = await h.signedIn(shop);
  made.sessionCookies.push(await sessionCookie(page));
  await walk('secrets-developers', page, async () => {
    await page.goto('/dashboard/test/developers');
    await page.getByLabel('Label for a new key (optional)').fill('Shop server');
    await page.getByRole('button', { name: 'Create Test key' }).click();
    made.apiKeys.push((await page.locator('#api-key-secret').textContent())!.trim());
    await page.goto('/dashboard/test/developers/endpoints/new');
    await page.getByLabel('URL').fill('http://127.0.0.1:9/hooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    made.endpointSecrets.push((await page.locator('#signing-secret').textContent())!.trim());
    await page.getByRole('link', { name: 'I have stored it' }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('heading', { name: 'New signing secret' }).waitFor();
    made.endpointSecrets.push((await page.locator('#signing-secret').textContent())!.trim());

    // Two-factor sign-in turned on: the seed shown once.
    await page.goto('/dashboard/two-factor');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const seed = (await page.locator('#totp-secret').textContent())!.trim();
    made.totpSeeds.push(seed);
    await page.getByLabel('Code from the app').fill(await generate({ secret: seed, epoch: unixSeconds(h.platform.clock.now()) }));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('Two-factor sign-in is on').first().waitFor();
  });

  // A user who sets the password through the one-time link, and one whose link is still unused.
  const used = await h.userWithLink(shop.accountId, `linked-${Date.now()}@shop.example`);
  const unused = await h.userWithLink(shop.accountId, `pending-${Date.now()}@shop.example`);
  for (const { link } of [used, unused]) made.setPasswordTokens.push(link.searchParams.get('token')!);
  const tab = await (await h.context()).newPage();
  await walk('secrets-set-password', tab, async () => {
    await tab.goto(`/dashboard/set-password${used.link.search}`);
    await tab.getByLabel('New password').fill(made.passwords[1]!);
    await tab.getByRole('button', { name: 'Set password' }).click();
    await tab.waitForURL(/password-set=1/);
  });
  const second = await h.signedIn({ email: used.email, password: made.passwords[1]! });
  made.sessionCookies.push(await sessionCookie(second));

  // A payment with webhooks, so events, deliveries and attempts exist next to the secrets.
  const created = await h.platform.request('POST', '/v1/checkout_sessions', {
    key: shop.testKey,
    body: { amount: '10.00', currency: 'USD', description: 'Mug', customer_email: 'ann@buyer.example' },
  });
  expect(created.status).toBe(201);

  kept = {};
  for (const [service, url] of Object.entries(h.databases)) kept[`${service} database`] = await everyRowOf(url);
  kept['event streams'] = await everyStreamMessage(h.platform.stack.natsUrl, h.platform.stack.natsPrefix);
  kept['logs'] = h.logs();
}, 240_000);
afterAll(async () => {
  await h?.stop();
});

describe('secrets at rest: nothing kept is enough to act as the merchant', () => {
  it('made one of each secret, and the scan reads every service database, the streams and a non-empty log', () => {
    expect(made.apiKeys).toHaveLength(3);
    expect(made.setPasswordTokens).toHaveLength(2);
    expect(made.sessionCookies).toHaveLength(2);
    expect(made.endpointSecrets).toHaveLength(2);
    expect(Object.keys(kept).sort()).toEqual(
      [
        'accounts database',
        'checkout database',
        'customers database',
        'dashboard database',
        'event streams',
        'gateway database',
        'logs',
        'settlement database',
        'webhooks database',
      ].sort(),
    );
    expect(kept['logs']!.length).toBeGreaterThan(1000);
    expect(kept['dashboard database']).toContain(shop.email);
  });

  it.each([
    ['API keys (operator- and dashboard-made, Test and Live)', () => made.apiKeys],
    ['dashboard passwords (set directly and through the link)', () => made.passwords],
    ['set-password link tokens (used and unused)', () => made.setPasswordTokens],
    ['session cookies', () => made.sessionCookies],
  ])('%s: in no table, stream or log line', (_kind, secrets) => {
    for (const secret of secrets()) expect({ secret, foundIn: foundIn(secret) }).toEqual({ secret, foundIn: [] });
  });

  it('API keys are kept as their SHA-256 only, with a hint of the first and last characters', async () => {
    const stored = await rows<{ key_hash: string; hint: string }>(h.databases['accounts']!, 'SELECT key_hash, hint FROM api_keys');
    for (const key of made.apiKeys) {
      const row = stored.find((r) => r.key_hash === sha256Hex(key));
      expect(row).toBeDefined();
      // The hint shows at most the prefix and the last four: never enough to use.
      expect(row!.hint.replace(/[^A-Za-z0-9]/g, '').length).toBeLessThanOrEqual('sktest'.length + 4);
    }
  });

  it('passwords are argon2id with at least OWASP’s parameters (19 MiB, 2 passes), each with its own salt', async () => {
    const users = await rows<{ email: string; password_hash: string | null }>(
      h.databases['dashboard']!,
      'SELECT email, password_hash FROM dashboard_users',
    );
    const hashes = users.map((u) => u.password_hash).filter((hash): hash is string => hash !== null);
    expect(hashes.length).toBeGreaterThanOrEqual(2);
    for (const hash of hashes) {
      const [, algorithm, version, params, salt] = hash.split('$');
      expect({ algorithm, version }).toEqual({ algorithm: 'argon2id', version: 'v=19' });
      const { m, t } = Object.fromEntries(params!.split(',').map((p) => p.split('=') as [string, string]));
      expect(Number(m)).toBeGreaterThanOrEqual(19_456);
      expect(Number(t)).toBeGreaterThanOrEqual(2);
      expect(Buffer.from(salt!, 'base64').length).toBeGreaterThanOrEqual(16);
    }
    expect(new Set(hashes.map((hash) => hash.split('$')[4])).size).toBe(hashes.length);
    // The user whose link is unused has no password at all.
    expect(users.filter((u) => u.password_hash === null)).toHaveLength(1);
  });

  it('set-password links and sessions are kept as the SHA-256 of their secret', async () => {
    const tokens = await rows<{ token_hash: string }>(h.databases['dashboard']!, 'SELECT token_hash FROM password_setup_tokens');
    expect(tokens.map((t) => t.token_hash).sort()).toEqual(made.setPasswordTokens.map(sha256Base64Url).sort());
    const sessions = await rows<{ id_hash: string }>(h.databases['dashboard']!, 'SELECT id_hash FROM dashboard_sessions');
    for (const cookie of made.sessionCookies) expect(sessions.map((s) => s.id_hash)).toContain(sha256Base64Url(cookie));
  });
});

// Issue 35 item 7: authenticator seeds and webhook signing secrets must be read back to check a code
// or sign a delivery, so they cannot be hashed; they are encrypted at rest (@hc/secrets, ADR 0042).
describe('secrets at rest that must be encrypted (issue 35 item 7)', () => {
  it('the authenticator seeds were made, and two-factor is on', () => {
    expect(made.totpSeeds).toHaveLength(1);
    expect(made.totpSeeds[0]).toMatch(/^[A-Z2-7]{16,}$/);
  });

  it('authenticator (TOTP) seeds: in no table, stream or log line', () => {
    for (const seed of made.totpSeeds) expect({ seed, foundIn: foundIn(seed) }).toEqual({ seed, foundIn: [] });
  });

  it('webhook signing secrets (whsec_, current and rotated-out): in no table, stream or log line', () => {
    for (const secret of made.endpointSecrets) expect({ secret, foundIn: foundIn(secret) }).toEqual({ secret, foundIn: [] });
  });

  it('nor anywhere else: no stream, no log line', () => {
    for (const seed of made.totpSeeds) expect(foundIn(seed).filter((place) => place !== 'dashboard database')).toEqual([]);
    for (const secret of made.endpointSecrets) expect(foundIn(secret).filter((place) => place !== 'webhooks database')).toEqual([]);
  });
});
