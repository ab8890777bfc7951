/**
 * The merchant dashboard with everything it talks to real: the platform of platform-harness.ts
 * (checkout, settlement, customers, webhooks, the gateway with its internal admin listener), the
 * dashboard's own database and server, and Debian's Chromium driven by playwright-core. Merchants
 * get a dashboard user through the dashboard's internal gRPC listener, as `operator users create`
 * does. A walk that fails leaves a screenshot in e2e/test-artifacts/ (git-ignored).
 */
import { join } from 'node:path';
import { expect } from '@jest/globals';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { createServiceClient, type PublicCallContext } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';
import {
  createTestDatabase,
  freePort,
  TEST_SECRETS_ENCRYPTION_KEYS,
  TEST_STATEMENT_PUBLIC_KEYSET,
  TEST_STATEMENT_SIGNING_KEY,
  type TestDatabase,
  NOT_RUNNING_ADDRESS,
} from '@hc/test-kit';
import { launchChromium, walk as walkPages } from '@hc/test-kit/browser';
import { DASHBOARD_MIGRATIONS_DIR, loadDashboardConfig, startDashboard, type RunningDashboard } from '@hc/dashboard';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

export { docScreenshot, seriousViolations } from '@hc/test-kit/browser';

const ARTIFACTS = join(import.meta.dirname, '..', 'test-artifacts');
export const PASSWORD = 'correct horse battery staple';

export interface DashboardMerchant extends TestMerchant {
  readonly email: string;
  readonly password: string;
}

export interface DashboardHarness {
  readonly platform: Platform;
  readonly dashboard: RunningDashboard;
  readonly database: TestDatabase;
  /** The dashboard's base URL (pages under /dashboard). */
  readonly url: string;
  readonly browser: Browser;
  /** A new merchant (Test and Live keys, a payout wallet) with a dashboard user whose password is set. */
  merchant(options?: { email?: string }): Promise<DashboardMerchant>;
  /** A fresh browser context (its own cookies), phone-sized unless told otherwise. */
  context(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A new page signed in as the user (through the sign-in form). */
  signedIn(user: { email: string; password: string }, options?: BrowserContextOptions): Promise<Page>;
  stop(): Promise<void>;
}

let emails = 0;

/**
 * A Test payment made through the public API as a shop's server does (a blue mug for 19.90 USD unless
 * `fields` say otherwise), started and simulated to `outcome` when one is given. Resolves its id.
 */
export async function apiPayment(
  platform: Platform,
  key: string,
  fields: Record<string, unknown>,
  outcome?: 'paid' | 'underpaid' | 'failed',
): Promise<string> {
  const created = await platform.request('POST', '/v1/checkout_sessions', {
    key,
    body: { amount: '19.90', currency: 'usd', description: 'Blue mug', customer_email: 'someone@buyer.example', ...fields },
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  if (!outcome) return id;
  expect((await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key, body: { country: 'de' } })).status).toBe(200);
  expect((await platform.request('POST', `/v1/payments/${id}/simulate`, { key, body: { outcome } })).status).toBe(200);
  return id;
}

export async function startDashboardHarness(
  label: string,
  options: { notifications?: boolean; webhooks?: Record<string, string> } = {},
): Promise<DashboardHarness> {
  // The dashboard's internal listener at a port chosen now: notifications, started first, asks it
  // whether a Test receipt's address is one of the account's users.
  const grpcAddress = `127.0.0.1:${await freePort()}`;
  const platform = await startPlatform({
    webhooks: options.webhooks ?? true,
    notifications: options.notifications ? { dashboardGrpcAddress: grpcAddress } : false,
  });
  const database = await createTestDatabase('dashboard', DASHBOARD_MIGRATIONS_DIR);
  const dashboard = await startDashboard(
    loadDashboardConfig({
      DASHBOARD_DATABASE_URL: database.url,
      DASHBOARD_PORT: '0',
      DASHBOARD_GRPC_ADDRESS: grpcAddress,
      DASHBOARD_SECURE_COOKIES: 'false',
      SECRETS_ENCRYPTION_KEYS: TEST_SECRETS_ENCRYPTION_KEYS,
      STATEMENT_SIGNING_KEY: TEST_STATEMENT_SIGNING_KEY,
      STATEMENT_PUBLIC_KEYSET: TEST_STATEMENT_PUBLIC_KEYSET,
      PUBLIC_BASE_URL: 'http://127.0.0.1',
      ACCOUNTS_GRPC_ADDRESS: platform.accountsAddress,
      CHECKOUT_GRPC_ADDRESS: platform.stack.checkout.address,
      CUSTOMERS_GRPC_ADDRESS: platform.customers.address,
      WEBHOOKS_GRPC_ADDRESS: platform.webhooks!.address,
      NOTIFICATIONS_GRPC_ADDRESS: platform.notifications?.address ?? NOT_RUNNING_ADDRESS,
      LOG_LEVEL: 'silent',
    }),
    createLogger('dashboard-test', { level: 'silent' }),
    { now: platform.clock.now },
  );
  platform.operatorEnv['DASHBOARD_GRPC_ADDRESS'] = dashboard.grpcAddress;
  const users = createServiceClient<typeof DashboardUsersService, PublicCallContext>(DashboardUsersService, dashboard.grpcAddress, {
    timeoutMs: 30_000,
  });
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  const harness: DashboardHarness = {
    platform,
    dashboard,
    database,
    url: dashboard.url,
    browser,
    async merchant(options = {}) {
      const merchant = await platform.merchant();
      const email = options.email ?? `owner-${label}-${(emails += 1)}-${Date.now()}@shop.example`;
      await users.createUser({ accountId: merchant.accountId, email, password: PASSWORD }, { requestId: 'req_test' });
      return { ...merchant, email, password: PASSWORD };
    },
    async context(options = {}) {
      const context = await browser.newContext({ baseURL: dashboard.url, viewport: { width: 390, height: 844 }, ...options });
      context.setDefaultTimeout(10_000);
      contexts.push(context);
      return context;
    },
    async signedIn(user, options = {}) {
      return signInThroughForm(await (await harness.context(options)).newPage(), user);
    },
    async stop() {
      await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
      await browser.close();
      users.close();
      await dashboard.stop();
      await database.drop();

      await platform.stop();
    },
  };
  return harness;
}

/** Signs in through the dashboard's own form (no script needed) and waits for the home page. */
export async function signInThroughForm(page: Page, user: { email: string; password: string }): Promise<Page> {
  await page.goto('/dashboard/sign-in');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard\/test\/overview/);
  return page;
}

/** Runs a walk through the dashboard; when it fails, keeps a screenshot of where it was. */
export function walk(name: string, page: Page, steps: () => Promise<void>): Promise<void> {
  return walkPages(ARTIFACTS, name, page, steps);
}
