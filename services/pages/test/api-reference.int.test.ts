/**
 * GET /docs: the API reference built by `pnpm generate` (redocly build-docs), served by the pages with
 * its own strict policy, rendered in Debian's Chromium: every operation shows, with its code samples,
 * and the page breaks no rule of its policy and asks nothing of any other origin (no CDN, no fonts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { launchChromium } from '@hc/test-kit/browser';
import { createLogger } from '@hc/logging';
import { loadPagesConfig } from '../src/config.ts';
import { startPages, type RunningPages } from '../src/pages-server.ts';

let pages: RunningPages;
let browser: Browser;

beforeAll(async () => {
  // The reference needs no service: checkout's address is never dialled by GET /docs.
  pages = await startPages(
    loadPagesConfig({ PAGES_PORT: '0', CHECKOUT_GRPC_ADDRESS: '127.0.0.1:9', LOG_LEVEL: 'silent' }),
    createLogger('pages-test', { level: 'silent' }),
  );
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await pages?.stop();
});

const EXTERNAL = /^(https?:)?\/\//i;

describe('GET /docs, the API reference', () => {
  it('is one self-contained file: no script, style, font or image from another origin, and a policy that names none', async () => {
    const response = await fetch(`${pages.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/script-src 'sha256-[^']+'/);
    expect(policy).not.toMatch(/https?:|\*|'unsafe-eval'/);
    expect(policy.split(';').find((d) => d.trim().startsWith('script-src'))).not.toContain("'unsafe-inline'");
    const html = await response.text();
    const loads = [
      ...[...html.matchAll(/<script\b[^>]*\bsrc\s*=\s*["']?([^"' >]+)/gi)].map((m) => m[1]!),
      ...[...html.matchAll(/<link\b[^>]*\bhref\s*=\s*["']?([^"' >]+)/gi)].map((m) => m[1]!),
      ...[...html.matchAll(/@import\s+(?:url\()?["']?([^"')\s;]+)/gi)].map((m) => m[1]!),
      ...[...html.matchAll(/url\(\s*["']?([^"')\s]+)/gi)].map((m) => m[1]!),
    ];
    expect(loads.filter((url) => EXTERNAL.test(url))).toEqual([]);
  });

  it('renders every operation in Chromium with no policy violation and no request to another origin', async () => {
    const context = await browser.newContext({ locale: 'en-GB' });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    const violations: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (m) => {
      if (m.text().includes('Content Security Policy')) violations.push(m.text());
    });
    page.on('pageerror', (error) => violations.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(`${pages.url}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) elsewhere.push(url);
    });
    await page.goto(`${pages.url}/docs`);
    const document = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'openapi.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const summaries = Object.values(document['paths'] as Record<string, Record<string, { summary: string }>>).flatMap((item) =>
      ['get', 'post', 'delete'].filter((m) => m in item).map((m) => item[m]!.summary),
    );
    await page.locator('h2', { hasText: 'Create a checkout session' }).first().waitFor();
    // Every operation is in the sidebar (Redoc renders the sections themselves as they scroll into view).
    for (const summary of summaries) {
      expect({ summary, shown: (await page.getByText(summary, { exact: true }).count()) > 0 }).toEqual({ summary, shown: true });
    }
    // The first operation's code samples (x-codeSamples): curl shown, the SDK's beside it.
    await page.getByText('-H "Authorization: Bearer $TEST_SECRET_KEY"').first().waitFor({ state: 'attached' });
    expect(await page.content()).toContain('client.checkoutSessions.create(');
    expect(violations).toEqual([]);
    expect(elsewhere).toEqual([]);
    await context.close();
  }, 60_000);
});
