/**
 * The hosted pages with everything they talk to real: checkout (with settlement, PostgreSQL and NATS,
 * from @hc/checkout/testing), the pages HTTP server, and Debian's Chromium driven by playwright-core.
 * Sessions are made as a merchant makes them (checkout's CheckoutService with the gateway's account
 * snapshot); the merchant's account is in the stack's gateway database, where checkout reads it. A walk that fails leaves a screenshot in services/pages/test-artifacts/ (git-ignored).
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchChromium, walk as walkPages } from '@hc/test-kit/browser';
export { CHROMIUM, docScreenshot, seriousViolations } from '@hc/test-kit/browser';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { startCheckoutStack, type CheckoutStack } from '@hc/checkout/testing';
import { loadPagesConfig, type PagesConfig } from '../src/config.ts';
import { startPages, type RunningPages } from '../src/pages-server.ts';

export const ARTIFACTS = join(import.meta.dirname, '..', 'test-artifacts');
export const merchant: CallContext = { accountId: 'acct_pages', livemode: false, requestId: 'req_pages' };
export const ACCOUNT = { feeBps: 150, payoutWallet: '0x3333333333333333333333333333333333333333', merchantName: 'Blue Mug Shop' };

export interface PagesHarness {
  readonly stack: CheckoutStack;
  readonly pages: RunningPages;
  readonly api: ServiceClient<typeof CheckoutService>;
  readonly browser: Browser;
  /** A session made by the merchant. */
  createSession(fields?: Record<string, unknown>, ctx?: CallContext): Promise<Payment>;
  /** A fresh browser context (its own tabs), English and German first, on a phone-sized screen. */
  context(options?: BrowserContextOptions): Promise<BrowserContext>;
  stop(): Promise<void>;
}

export async function startPagesHarness(label: string, config: Partial<Record<keyof PagesConfig, string>> = {}): Promise<PagesHarness> {
  const logger = createLogger('pages-test', { level: 'silent' });
  const stack = await startCheckoutStack(logger, { label });
  // The account as the gateway keeps it: checkout reads its wallet, fee and status on every buyer action.
  await stack.putAccount({
    id: merchant.accountId,
    name: ACCOUNT.merchantName,
    payoutWallet: ACCOUNT.payoutWallet,
    feeBps: ACCOUNT.feeBps,
  });
  const pages = await startPages(
    loadPagesConfig({
      PAGES_PORT: '0',
      CHECKOUT_GRPC_ADDRESS: stack.checkout.address,
      ACCOUNTS_GRPC_ADDRESS: stack.accounts.address,
      LOG_LEVEL: 'silent',
      ...config,
    }),
    logger,
  );
  const api = createServiceClient(CheckoutService, stack.checkout.address);
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  return {
    stack,
    pages,
    api,
    browser,
    async createSession(fields = {}, ctx = merchant) {
      const { payment } = await api.createCheckoutSession(
        { amount: '19.90', currency: 'usd', description: 'Blue mug', account: ACCOUNT, ...fields },
        ctx,
      );
      return payment!;
    },
    async context(options = {}) {
      const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 }, ...options });
      // Fail a step well within the test's own timeout, so the screenshot shows where it stuck.
      context.setDefaultTimeout(8_000);
      contexts.push(context);
      return context;
    },
    async stop() {
      await Promise.all(contexts.map((c) => c.close()));
      await browser.close();
      api.close();
      await pages.stop();
      await stack.stop();
    },
  };
}

/** Runs a buyer's walk; when it fails, keeps a screenshot of where the buyer was. */
export function walk(name: string, page: Page, steps: () => Promise<void>): Promise<void> {
  return walkPages(ARTIFACTS, name, page, steps);
}
