/**
 * The real browser for page tests (Debian's Chromium driven by playwright-core; scripts/ensure-chromium.sh
 * installs it) and what every page test does with it: keep a screenshot when a walk fails, keep
 * screenshots for the docs on request, and run axe-core. Imported as `@hc/test-kit/browser`, so tests
 * without a browser never load playwright.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const REPOSITORY = join(import.meta.dirname, '..', '..', '..');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

/** Runs a walk through pages; when it fails, keeps a screenshot of where it was in `artifactsDir`. */
export async function walk(artifactsDir: string, name: string, page: Page, steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } catch (error) {
    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, `${name.replace(/[^a-z0-9]+/gi, '-')}.png`), fullPage: true }).catch(() => undefined);
    throw error;
  }
}

/** With SAVE_DOC_SCREENSHOTS=1, keeps the page as docs/images/<name>.png (the README shows them). */
export async function docScreenshot(page: Page, name: string): Promise<void> {
  if (process.env['SAVE_DOC_SCREENSHOTS'] !== '1') return;
  const dir = join(REPOSITORY, 'docs', 'images');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/** axe-core's serious and critical violations on the page (run through DevTools, outside the CSP). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { source } = (await import('axe-core')).default;
  await page.evaluate(source);
  const result = await page.evaluate(() => (globalThis as unknown as { axe: { run(): Promise<AxeResult> } }).axe.run());
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}
