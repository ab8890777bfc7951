/**
 * The whole platform for the security pass (docs/security.md): the platform of platform-harness.ts
 * with webhooks, the dashboard and the buyer pages servers, Debian's Chromium, and — when asked — every
 * log line every service wrote (to look for secrets in them). Like dashboard-harness.ts, whose merchant
 * and sign-in helpers it mirrors, plus what the security tests need besides: users made without a
 * password (their one-time set-password link), the pages server, the databases of every service, and
 * raw form posts with a session cookie.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { createServiceClient, type PublicCallContext } from '@hc/grpc';
import { createLogger, type Logger } from '@hc/logging';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';
import { signInThroughForm } from './dashboard-harness.ts';
import {
  createTestDatabase,
  TEST_SECRETS_ENCRYPTION_KEYS,
  TEST_STATEMENT_PUBLIC_KEYSET,
  TEST_STATEMENT_SIGNING_KEY,
  type TestDatabase,
} from '@hc/test-kit';
import { launchChromium, walk as walkPages } from '@hc/test-kit/browser';
import { DASHBOARD_MIGRATIONS_DIR, loadDashboardConfig, startDashboard, type RunningDashboard } from '@hc/dashboard';
import { loadPagesConfig, startPages, type RunningPages } from '@hc/pages';
import { PASSWORD, type DashboardMerchant } from './dashboard-harness.ts';
import { startPlatform, WALLET, type Platform, type TestMerchant } from './platform-harness.ts';

export { PASSWORD, type DashboardMerchant } from './dashboard-harness.ts';

const ARTIFACTS = join(import.meta.dirname, '..', 'test-artifacts');

export interface SecurityHarness {
  readonly platform: Platform;
  readonly dashboard: RunningDashboard;
  /** The dashboard's own database (users, sessions, set-password links, sign-in attempts). */
  readonly dashboardDatabase: TestDatabase;
  /** The dashboard's base URL (pages under /dashboard). */
  readonly url: string;
  /** The buyer pages' base URL (/pay, /track, /c). */
  readonly pagesUrl: string;
  readonly browser: Browser;
  /** Every service database of the run: name → URL. */
  readonly databases: Readonly<Record<string, string>>;
  /** Every line every service wrote, when started with `captureLogs` (JSON lines). */
  logs(): string;
  /** A new merchant (Test and Live keys, a payout wallet) with a dashboard user whose password is set. */
  merchant(options?: { email?: string; name?: string }): Promise<DashboardMerchant>;
  /** A dashboard user of `accountId` made without a password: its one-time set-password link. */
  userWithLink(accountId: string, email: string): Promise<{ email: string; link: URL }>;
  /** A fresh browser context (its own cookies), phone-sized unless told otherwise. */
  context(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A new page signed in as the user (through the sign-in form). */
  signedIn(user: { email: string; password: string }, options?: BrowserContextOptions): Promise<Page>;
  stop(): Promise<void>;
}

let emails = 0;

export async function startSecurityHarness(
  label: string,
  options: { captureLogs?: boolean; browser?: boolean } = {},
): Promise<SecurityHarness> {
  const platform = await startPlatform({
    webhooks: true,
    notifications: true,
    captureLogs: options.captureLogs ?? false,
  });
  const lines: string[] = [];
  const logger = (service: string): Logger =>
    options.captureLogs
      ? createLogger(service, { level: 'trace', destination: { write: (line: string) => void lines.push(line) } })
      : createLogger(service, { level: 'silent' });
  const database = await createTestDatabase('dashboard', DASHBOARD_MIGRATIONS_DIR);
  const dashboard = await startDashboard(
    loadDashboardConfig({
      DASHBOARD_DATABASE_URL: database.url,
      DASHBOARD_PORT: '0',
      DASHBOARD_GRPC_ADDRESS: '127.0.0.1:0',
      DASHBOARD_SECURE_COOKIES: 'false',
      PUBLIC_BASE_URL: 'http://127.0.0.1',
      ACCOUNTS_GRPC_ADDRESS: platform.accountsAddress,
      CHECKOUT_GRPC_ADDRESS: platform.stack.checkout.address,
      CUSTOMERS_GRPC_ADDRESS: platform.customers.address,
      WEBHOOKS_GRPC_ADDRESS: platform.webhooks!.address,
      NOTIFICATIONS_GRPC_ADDRESS: platform.notifications!.address,
      SECRETS_ENCRYPTION_KEYS: TEST_SECRETS_ENCRYPTION_KEYS,
      STATEMENT_SIGNING_KEY: TEST_STATEMENT_SIGNING_KEY,
      STATEMENT_PUBLIC_KEYSET: TEST_STATEMENT_PUBLIC_KEYSET,
      LOG_LEVEL: options.captureLogs ? 'trace' : 'silent',
    }),
    logger('dashboard'),
    { now: platform.clock.now },
  );
  const pages: RunningPages = await startPages(
    loadPagesConfig({
      PAGES_PORT: '0',
      CHECKOUT_GRPC_ADDRESS: platform.stack.checkout.address,
      NOTIFICATIONS_GRPC_ADDRESS: platform.notifications!.address,
      PAGES_VIEWS_PER_MINUTE: '100000',
      PAGES_ACTIONS_PER_MINUTE: '100000',
      LOG_LEVEL: options.captureLogs ? 'trace' : 'silent',
    }),
    logger('pages'),
  );
  platform.operatorEnv['DASHBOARD_GRPC_ADDRESS'] = dashboard.grpcAddress;
  const users = createServiceClient<typeof DashboardUsersService, PublicCallContext>(DashboardUsersService, dashboard.grpcAddress, {
    timeoutMs: 30_000,
  });
  // Tests that only speak HTTP leave Chromium out (it is slow to start on a loaded machine).
  const browser = options.browser === false ? (undefined as unknown as Browser) : await launchChromium();
  const contexts: BrowserContext[] = [];
  const harness: SecurityHarness = {
    platform,
    dashboard,
    dashboardDatabase: database,
    url: dashboard.url,
    pagesUrl: pages.url,
    browser,
    databases: {
      gateway: platform.gatewayDatabaseUrl,
      accounts: platform.accountsDatabaseUrl,
      checkout: platform.stack.checkoutDatabaseUrl,
      settlement: platform.stack.settlementDatabaseUrl,
      customers: platform.customers.databaseUrl,
      webhooks: platform.webhooks!.databaseUrl,
      dashboard: database.url,
    },
    logs: () => platform.logs() + lines.join(''),
    async merchant(options = {}) {
      const merchant = options.name === undefined ? await platform.merchant() : await namedMerchant(platform, options.name);
      const email = options.email ?? `owner-${label}-${(emails += 1)}-${Date.now()}@shop.example`;
      await users.createUser({ accountId: merchant.accountId, email, password: PASSWORD }, { requestId: 'req_test' });
      return { ...merchant, email, password: PASSWORD };
    },
    async userWithLink(accountId, email) {
      const made = await users.createUser({ accountId, email, password: '' }, { requestId: 'req_test' });
      return { email, link: new URL(made.setPasswordUrl!) };
    },
    async context(options = {}) {
      const context = await browser.newContext({ baseURL: dashboard.url, viewport: { width: 390, height: 844 }, ...options });
      context.setDefaultTimeout(20_000);
      contexts.push(context);
      return context;
    },
    async signedIn(user, options = {}) {
      return signInThroughForm(await (await harness.context(options)).newPage(), user);
    },
    async stop() {
      await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
      await browser?.close();
      users.close();
      await pages.stop();
      await dashboard.stop();
      await database.drop();
      await platform.stop();
    },
  };
  return harness;
}

/** A merchant whose account has this display name (the buyer pages and the dashboard's header show it). */
async function namedMerchant(platform: Platform, name: string): Promise<TestMerchant> {
  const account = await platform.operations.createAccount({ name, payoutWallet: WALLET });
  const [test, live] = await Promise.all([
    platform.operations.createKey(account.id, 'test'),
    platform.operations.createKey(account.id, 'live'),
  ]);
  return { accountId: account.id, testKey: test.secret, liveKey: live.secret };
}

/** The value of the dashboard session cookie of a signed-in page. */
export async function sessionCookie(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'hc_dashboard');
  if (!cookie) throw new Error('no dashboard session cookie');
  return cookie.value;
}

/** The CSRF token of a signed-in page's session (from any form of the dashboard). */
export async function csrfToken(page: Page): Promise<string> {
  await page.goto('/dashboard/test/settings');
  return page.locator('input[name="_csrf"]').first().inputValue();
}

/**
 * A form post to the dashboard as a browser of `cookie` would send it from the dashboard's own page
 * (same origin), unless `headers` say otherwise. Redirects are not followed.
 */
export async function postForm(
  baseUrl: string,
  path: string,
  fields: Record<string, string>,
  cookie: string | null,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: baseUrl,
      'sec-fetch-site': 'same-origin',
      ...(cookie === null ? {} : { cookie: `hc_dashboard=${cookie}` }),
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** A session of the dashboard signed in over plain HTTP, as a browser would: its cookie and CSRF token. */
export interface HttpSession {
  readonly cookie: string;
  readonly csrf: string;
}

/** Signs in through the sign-in form over HTTP (no second factor): the new session's cookie and token. */
export async function signInOverHttp(baseUrl: string, user: { email: string; password: string }): Promise<HttpSession> {
  const response = await postForm(baseUrl, '/dashboard/sign-in', { email: user.email, password: user.password }, null);
  if (response.status !== 303) throw new Error(`sign-in answered ${response.status}`);
  const cookie = /hc_dashboard=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  if (!cookie) throw new Error('sign-in set no session cookie');
  return { cookie, csrf: await csrfOf(baseUrl, cookie) };
}

/** The CSRF token a session's forms carry (read from its settings page). */
export async function csrfOf(baseUrl: string, cookie: string): Promise<string> {
  const html = await (await getPage(baseUrl, '/dashboard/test/settings', cookie)).text();
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('no CSRF token on the settings page');
  return token;
}

/** A GET of a dashboard page with a session cookie, redirects not followed. */
export async function getPage(baseUrl: string, path: string, cookie: string | null): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { redirect: 'manual', headers: cookie === null ? {} : { cookie: `hc_dashboard=${cookie}` } });
}

/** Every route the dashboard's route files declare, as "METHOD path" (mode pages without /dashboard/:mode). */
export function declaredRoutes(): string[] {
  const dir = join(import.meta.dirname, '..', '..', 'services', 'dashboard', 'src', 'api', 'http');
  const paths = readFileSync(join(dir, 'paths.ts'), 'utf8');
  const named = Object.fromEntries([...paths.matchAll(/^\s+(\w+): '([^']+)',$/gm)].map((m) => [m[1]!, m[2]!]));
  const routes: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('-routes.ts'))) {
    const source = readFileSync(join(dir, file), 'utf8');
    const actions = [...source.matchAll(/\['(\w+)', '\w+', '/g)].map((m) => m[1]!);
    for (const m of source.matchAll(/router\.(get|post|put|patch|delete|all)\(\s*([^,]+),/g)) {
      const expression = m[2]!.trim();
      const resolve = (text: string) => text.replace(/\$\{dashboardPaths\.(\w+)\}|dashboardPaths\.(\w+)/g, (_, a, b) => named[a ?? b]!);
      const literal = /^['`](.*)['`]$/.exec(expression)?.[1];
      const path = literal === undefined ? resolve(expression) : resolve(literal);
      const expanded = path.includes('${action}') ? actions.map((a) => path.replace('${action}', a)) : [path];
      for (const p of expanded) routes.push(`${m[1]!.toUpperCase()} ${p}`);
    }
  }
  return routes;
}

/** Runs a walk; when it fails, keeps a screenshot of where it was. */
export function walk(name: string, page: Page, steps: () => Promise<void>): Promise<void> {
  return walkPages(ARTIFACTS, name, page, steps);
}
