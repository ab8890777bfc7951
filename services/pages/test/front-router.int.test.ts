// Risk covered: merchants and buyers not sharing one base URL on the local platform: the front router
// (tools/platform/src/front-router.ts) sending /pay/* anywhere but the pages, or the rest anywhere but the gateway;
// and a client escaping the per-address limits behind it by naming its own address in X-Forwarded-For
// (issue 35, item 3: the router must append the peer it saw, which is what one trusted hop reads).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFrontRouter } from '../../../tools/platform/src/front-router.ts';
import { startPagesHarness, type PagesHarness } from './pages-harness.ts';

let h: PagesHarness;
let gateway: Server;
let dashboard: Server;
let router: { url: string; stop(): Promise<void> };

beforeAll(async () => {
  // As ./scripts/start runs them: one trusted hop (the router). Three page actions a minute per address.
  h = await startPagesHarness('pages-router', { PAGES_TRUST_PROXY_HOPS: '1', PAGES_ACTIONS_PER_MINUTE: '3' });
  // Stands in for the gateway: says which path reached it.
  gateway = createServer((req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ gateway: req.url })),
  );
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  // Stands in for the dashboard: says which X-Forwarded-* headers reached it.
  dashboard = createServer((req, res) => {
    const forwarded = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name.startsWith('x-forwarded-')));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(forwarded));
  });
  await new Promise<void>((resolve) => dashboard.listen(0, '127.0.0.1', resolve));
  router = await startFrontRouter({
    host: '127.0.0.1',
    port: 0,
    gatewayUrl: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`,
    pagesUrl: h.pages.url,
    dashboardUrl: `http://127.0.0.1:${(dashboard.address() as AddressInfo).port}`,
  });
}, 60_000);

afterAll(async () => {
  await router.stop();
  await new Promise((resolve) => gateway.close(resolve));
  await new Promise((resolve) => dashboard.close(resolve));
  await h.stop();
});

describe('front router', () => {
  it('serves the session url from the pages and the API from the gateway, on one address', async () => {
    const session = await h.createSession();
    const page = await fetch(`${router.url}/pay/${session.id}`);
    expect(page.status).toBe(200);
    await expect(page.text()).resolves.toContain('Blue Mug Shop');
    await expect((await fetch(`${router.url}/v1/payments/${session.id}`)).json()).resolves.toEqual({
      gateway: `/v1/payments/${session.id}`,
    });
    // Only /pay and what is under it: /payments is the gateway's.
    await expect((await fetch(`${router.url}/payments`)).json()).resolves.toEqual({ gateway: '/payments' });
    // The tracking pages and dashboard checkouts are the pages' too (a 404 page there, not the gateway's JSON).
    expect((await fetch(`${router.url}/track/pay_01JAAAAAAAAAAAAAAAAAAAAAAA`)).headers.get('content-type')).toMatch(/text\/html/);
    expect((await fetch(`${router.url}/c/chk_01JAAAAAAAAAAAAAAAAAAAAAAA`)).headers.get('content-type')).toMatch(/text\/html/);
    await expect((await fetch(`${router.url}/checkout`)).json()).resolves.toEqual({ gateway: '/checkout' });
    // The API reference is the pages' static file (its own policy), never a way into the gateway.
    const docs = await fetch(`${router.url}/docs`);
    expect(docs.headers.get('content-security-policy')).toContain("script-src 'sha256-");
    await expect((await fetch(`${router.url}/docsx`)).json()).resolves.toEqual({ gateway: '/docsx' });
    // The statement keys' document is the pages' (this harness publishes none: their 404 page); no other well-known path is.
    expect((await fetch(`${router.url}/.well-known/hc-statement-keys.json`)).headers.get('content-type')).toMatch(/text\/html/);
    await expect((await fetch(`${router.url}/.well-known/other.json`)).json()).resolves.toEqual({ gateway: '/.well-known/other.json' });
  });

  it('appends the peer it saw to a client-sent X-Forwarded-For and sets -Proto, -Host and -Port itself', async () => {
    const { port } = new URL(router.url);
    const spoofed = await fetch(`${router.url}/dashboard/sign-in`, {
      headers: {
        'x-forwarded-for': '198.51.100.7, 203.0.113.9',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-port': '443',
      },
    });
    await expect(spoofed.json()).resolves.toEqual({
      'x-forwarded-for': '198.51.100.7, 203.0.113.9, 127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': `127.0.0.1:${port}`,
      'x-forwarded-port': port,
    });
    await expect((await fetch(`${router.url}/dashboard`)).json()).resolves.toMatchObject({ 'x-forwarded-for': '127.0.0.1' });
  });

  it('counts page actions by the address it saw, however the client rotates X-Forwarded-For', async () => {
    const session = await h.createSession();
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i += 1) {
      const response = await fetch(`${router.url}/pay/${session.id}/provider`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `198.51.100.${i}` },
        body: 'provider=nobody',
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    // Three actions a minute from 127.0.0.1 (the router's peer), whatever each request claimed.
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
