// Risk covered: merchants and buyers not sharing one base URL on the local platform: the front router
// (scripts/front-router.ts) sending /pay/* anywhere but the pages, or the rest anywhere but the gateway.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFrontRouter } from '../../../scripts/front-router.ts';
import { startPagesHarness, type PagesHarness } from './pages-harness.ts';

let h: PagesHarness;
let gateway: Server;
let router: { url: string; stop(): Promise<void> };

beforeAll(async () => {
  h = await startPagesHarness('pages-router', { PAGES_TRUST_PROXY_HOPS: '1' });
  // Stands in for the gateway: says which path reached it.
  gateway = createServer((req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ gateway: req.url })),
  );
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  router = await startFrontRouter({
    host: '127.0.0.1',
    port: 0,
    gatewayUrl: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`,
    pagesUrl: h.pages.url,
  });
}, 60_000);

afterAll(async () => {
  await router.stop();
  await new Promise((resolve) => gateway.close(resolve));
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
  });
});
