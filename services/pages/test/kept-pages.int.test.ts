// Risk covered (ADR 0101): the payment page is kept rendered by its whole input, so a refresh of an
// unchanged payment is not rendered again. A kept page must never be stale (after a state change the
// next view shows it, in the buyer's language) and must keep the CSP rule: each answer's one script
// carries that answer's own nonce, never one written for another response.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startPagesHarness, type PagesHarness } from './pages-harness.ts';

let h: PagesHarness;
beforeAll(async () => {
  h = await startPagesHarness('pages-kept', { PAGES_ACTIONS_PER_MINUTE: '1000', PAGES_VIEWS_PER_MINUTE: '1000' });
}, 60_000);
afterAll(() => h.stop());

interface View {
  html: string;
  nonce: string;
}

async function view(id: string, language = 'en'): Promise<View> {
  const response = await fetch(`${h.pages.url}/pay/${id}`, { headers: { 'accept-language': language } });
  expect(response.status).toBe(200);
  const nonce = /script-src 'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
  expect(nonce).toBeDefined();
  return { html: await response.text(), nonce: nonce! };
}

/** A page action as the buyer's browser sends it (same origin); its answer is a 303 back to the page. */
async function act(id: string, action: string, form: Record<string, string>): Promise<void> {
  const response = await fetch(`${h.pages.url}/pay/${id}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
}

const scriptNonces = (html: string): string[] => [...html.matchAll(/<script nonce="([^"]*)"/g)].map((match) => match[1]!);
const title = (html: string): string => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';

it('a refresh answers the same page with its own nonce; after each state change the next view shows the new state', async () => {
  const session = await h.createSession({ customerEmail: 'ann@example.com' });
  const first = await view(session.id);
  const again = await view(session.id);
  expect(title(first.html)).toMatch(/^Pay\b/);
  expect(again.nonce).not.toBe(first.nonce);
  // Each answer's script carries its own response's nonce, and the pages are otherwise the same.
  expect(scriptNonces(first.html)).toEqual([first.nonce]);
  expect(scriptNonces(again.html)).toEqual([again.nonce]);
  expect(again.html.replaceAll(again.nonce, 'N')).toBe(first.html.replaceAll(first.nonce, 'N'));
  expect(first.html).not.toContain('nonce-slot-');

  await act(session.id, 'start', { email: 'ann@example.com', country: 'DE', locale: 'en' });
  const chosen = await view(session.id);
  expect(title(chosen.html)).toMatch(/^Choose how to pay\b/);
  expect(scriptNonces(chosen.html)).toEqual([chosen.nonce]);
  // The same payment in another language is another page.
  expect((await view(session.id, 'de')).html).toContain('lang="de"');

  await act(session.id, 'simulate', { outcome: 'paid' });
  const paid = await view(session.id);
  expect(title(paid.html)).toMatch(/^Payment received\b/);
  expect((await view(session.id)).html.replaceAll(/nonce="[^"]*"/g, '')).toBe(paid.html.replaceAll(/nonce="[^"]*"/g, ''));
});

it('answers a kept page as its exact UTF-8 bytes: the length names them, and HEAD has the same headers and no body', async () => {
  const session = await h.createSession({ customerEmail: 'jürgen@example.com' });
  for (let i = 0; i < 2; i += 1) {
    // The second view is the kept page's bytes with this answer's nonce written in.
    const response = await fetch(`${h.pages.url}/pay/${session.id}`, { headers: { 'accept-language': 'de' } });
    const bytes = Buffer.from(await response.arrayBuffer());
    const html = bytes.toString('utf8');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    // German words and the buyer's address outside ASCII: characters and bytes differ in number.
    expect(bytes.length).toBeGreaterThan(html.length);
    expect(html).toContain('jürgen@example.com');
    expect(html.endsWith('</html>\n') || html.endsWith('</html>')).toBe(true);
  }
  const head = await fetch(`${h.pages.url}/pay/${session.id}`, { method: 'HEAD', headers: { 'accept-language': 'de' } });
  expect(head.status).toBe(200);
  expect(Number(head.headers.get('content-length'))).toBeGreaterThan(1_000);
  expect(head.headers.get('content-security-policy')).toContain("'nonce-");
  expect(await head.text()).toBe('');
});
