// Risk covered: the hosted page being framed, running injected script, caching a buyer's email,
// accepting a page action forged by another site, letting one address start sessions in bulk, or
// reading a form that is not UTF-8 with U+FFFD or raw escapes in its fields (issue 35, item 10), or a
// start click that asks checkout more than once (issue 31)
// (over real HTTP, with checkout, settlement, PostgreSQL and NATS real).
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Client } from '@grpc/grpc-js';
import { merchant, startPagesHarness, type PagesHarness } from './pages-harness.ts';

let h: PagesHarness;

beforeAll(async () => {
  // Behind one proxy (as behind the front router or the Ingress): the buyer's address is X-Forwarded-For.
  h = await startPagesHarness('pages-guards', { PAGES_ACTIONS_PER_MINUTE: '3', PAGES_TRUST_PROXY_HOPS: '1' });
}, 60_000);

afterAll(async () => {
  await h.stop();
});

// Each test acts from its own buyer address (X-Forwarded-For), so their action budgets are apart.
const form = (fields: Record<string, string>, address = '192.0.2.1') => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
  body: new URLSearchParams(fields).toString(),
  redirect: 'manual' as const,
});

describe('page guards', () => {
  it('sends a nonce-based strict CSP, no framing, no referrer and no caching', async () => {
    const session = await h.createSession({ customerEmail: 'ann@example.com' });
    const response = await fetch(`${h.pages.url}/pay/${session.id}`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html = await response.text();
    // Every script carries this response's nonce.
    expect(html.match(/<script\b[^>]*>/g)!.every((tag) => tag.includes(`nonce="${nonce}"`))).toBe(true);
  });

  it('shows a Live payment without the Test banner or Test outcome buttons, and ignores a Test outcome posted to it', async () => {
    const session = await h.createSession({ customerEmail: 'ann@example.com' }, { ...merchant, livemode: true });
    await fetch(`${h.pages.url}/pay/${session.id}/start`, form({ email: 'ann@example.com', country: 'US' }, '192.0.2.2'));
    const html = await (await fetch(`${h.pages.url}/pay/${session.id}`)).text();
    expect(html).toContain('Choose how to pay');
    expect(html).not.toContain('Test mode');
    expect(html).not.toContain('Simulate');
    const simulated = await fetch(`${h.pages.url}/pay/${session.id}/simulate`, form({ outcome: 'paid' }, '192.0.2.2'));
    expect(simulated.status).toBe(303);
    const { payment: read } = await h.api.getCheckoutSession({ id: session.id }, { ...merchant, livemode: true });
    expect(read!.status).toBe('open');
  });

  it('escapes what the merchant wrote', async () => {
    const session = await h.createSession({ description: '<img src=x onerror=alert(1)>' });
    const html = await (await fetch(`${h.pages.url}/pay/${session.id}`)).text();
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('refuses a form body over 4 KiB with 413, not a 500, and starts nothing', async () => {
    const session = await h.createSession();
    const response = await fetch(`${h.pages.url}/pay/${session.id}/start`, form({ email: `${'a'.repeat(5000)}@example.com` }, '192.0.2.3'));
    expect(response.status).toBe(413);
    const { payment: read } = await h.api.getCheckoutSession({ id: session.id }, merchant);
    expect(read!.startedAt).toBeUndefined();
  });

  it('refuses a page action another site sends and changes nothing', async () => {
    const session = await h.createSession({ customerEmail: 'ann@example.com' });
    const forged = form({ email: 'ann@example.com', country: 'US' });
    const response = await fetch(`${h.pages.url}/pay/${session.id}/start`, {
      ...forged,
      headers: { ...forged.headers, 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    const { payment: read } = await h.api.getCheckoutSession({ id: session.id }, merchant);
    expect(read!.startedAt).toBeUndefined();
  });

  it('answers an action in a state that does not take it with that state page', async () => {
    const session = await h.createSession({ customerEmail: 'ann@example.com' });
    const response = await fetch(`${h.pages.url}/pay/${session.id}/simulate`, form({ outcome: 'paid' }));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/pay/${session.id}`);
    const { payment: read } = await h.api.getCheckoutSession({ id: session.id }, merchant);
    expect(read!.status).toBe('open');
  });

  it('limits page actions per buyer address: past the limit, 429 with Retry-After and no start; other buyers go on', async () => {
    const session = await h.createSession();
    const from = (address: string, fields: Record<string, string>) => {
      const request = form(fields);
      return fetch(`${h.pages.url}/pay/${session.id}/start`, { ...request, headers: { ...request.headers, 'x-forwarded-for': address } });
    };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await from('203.0.113.7', { email: 'bad', country: 'US' })).status);
    expect(statuses).toEqual([400, 400, 400]);
    const limited = await from('203.0.113.7', { email: 'ann@example.com', country: 'US' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const { payment: read } = await h.api.getCheckoutSession({ id: session.id }, merchant);
    expect(read!.startedAt).toBeUndefined();
    expect((await from('198.51.100.2', { email: 'ann@example.com', country: 'US' })).status).toBe(303);
  });

  it.each([
    [
      'a raw byte that is not UTF-8 (0xFF)',
      Buffer.concat([Buffer.from('email=ann'), Buffer.from([0xff]), Buffer.from('@example.com&country=US')]),
      '192.0.2.11',
    ],
    [
      'a Latin-1 é byte (0xE9)',
      Buffer.concat([Buffer.from('email=ren'), Buffer.from([0xe9]), Buffer.from('@example.com&country=US')]),
      '192.0.2.12',
    ],
    ['percent-encoding that is not UTF-8 (%FF)', Buffer.from('email=ann%FF@example.com&country=US'), '192.0.2.13'],
    ['a percent-encoded sequence cut short (%E2%82)', Buffer.from('email=ann@example.com&country=U%E2%82'), '192.0.2.14'],
  ])('refuses a start form with %s: a 400 page, and nothing starts', async (_label, body, address) => {
    const session = await h.createSession();
    const response = await fetch(`${h.pages.url}/pay/${session.id}/start`, { ...form({}, address), body });
    expect([response.status, response.headers.get('content-type')]).toEqual([400, 'text/html; charset=utf-8']);
    await expect(response.text()).resolves.toContain('The form could not be read');
    const { payment: read } = await h.api.getCheckoutSession({ id: session.id }, merchant);
    expect(read!.startedAt).toBeUndefined();
  });

  it('a start click is one call into checkout: the page it lands on shows what the start answered; a reload asks again', async () => {
    const session = await h.createSession({ customerEmail: 'ann@example.com' });
    const intoCheckout: string[] = [];
    const original = Client.prototype.makeUnaryRequest;
    // Every unary call this process makes; only those into checkout's services count (not checkout's
    // own calls to settlement and the gateway, which run in this process too).
    const spy = jest.spyOn(Client.prototype, 'makeUnaryRequest').mockImplementation(function (this: Client, ...args: unknown[]) {
      if (String(args[0]).startsWith('/hc.checkout.v1.')) intoCheckout.push(String(args[0]).split('/').pop()!);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as never);
    try {
      const started = await fetch(
        `${h.pages.url}/pay/${session.id}/start`,
        form({ email: 'ann@example.com', country: 'US' }, '192.0.2.30'),
      );
      expect([started.status, started.headers.get('location')]).toEqual([303, `/pay/${session.id}`]);
      const cookie = started.headers.get('set-cookie')!.split(';')[0]!;
      expect(started.headers.get('set-cookie')).toMatch(/HttpOnly/i);
      const page = await fetch(`${h.pages.url}/pay/${session.id}`, { headers: { cookie } });
      expect(await page.text()).toContain('Choose how to pay');
      // Before (issue 31): GetHostedSession, StartHostedSession, GetHostedSession.
      expect(intoCheckout).toEqual(['StartHostedSession']);
      // The answer is handed over once: the same cookie again (a reload) reads the session from checkout.
      const reload = await fetch(`${h.pages.url}/pay/${session.id}`, { headers: { cookie } });
      expect(await reload.text()).toContain('Choose how to pay');
      // A view goes out grouped (a group of one here: docs/batching.md).
      expect(intoCheckout).toEqual(['StartHostedSession', 'GetHostedSessions']);
    } finally {
      spy.mockRestore();
    }
    const { payment: read } = await h.api.getCheckoutSession({ id: session.id }, merchant);
    expect(read!.startedAt).toBeDefined();
  });

  it("never shows one payment's handed-over answer on another payment's page", async () => {
    const [a, b] = [
      await h.createSession({ customerEmail: 'ann@example.com' }),
      await h.createSession({ customerEmail: 'bob@example.com' }),
    ];
    const started = await fetch(`${h.pages.url}/pay/${a.id}/start`, form({ email: 'ann@example.com', country: 'US' }, '192.0.2.31'));
    const cookie = started.headers.get('set-cookie')!.split(';')[0]!;
    const other = await (await fetch(`${h.pages.url}/pay/${b.id}`, { headers: { cookie } })).text();
    expect(other).toContain('bob@example.com');
    expect(other).not.toContain('ann@example.com');
  });
});
