// Risk covered: a request Node's HTTP parser refuses (bad or negative Content-Length, bad chunked
// framing, a control character in a header, raw non-ASCII in the path, a request line or headers over
// 16 KiB, an unsupported Expect) answered with Node's bare status line and an empty body by a listener
// other than the gateway (issue 34 item 2). Through the front router of ./scripts/start: the API's
// error body on /v1 paths, a plain error page elsewhere, never a backend reached; the hosted pages'
// own listener answers a plain page too.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rawRequest, type RawResponse } from '@hc/test-kit';
import { startFrontRouter } from '../../../tools/platform/src/front-router.ts';
import { startPagesHarness, type PagesHarness } from './pages-harness.ts';

let h: PagesHarness;
let standIn: Server;
let reachedStandIn = 0;
let router: { url: string; stop(): Promise<void> };

beforeAll(async () => {
  h = await startPagesHarness('pages-refusals');
  // Stands in for the gateway and the dashboard: a refused request must never get here.
  standIn = createServer((_req, res) => {
    reachedStandIn += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  const standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
  router = await startFrontRouter({ host: '127.0.0.1', port: 0, gatewayUrl: standInUrl, pagesUrl: h.pages.url, dashboardUrl: standInUrl });
}, 60_000);

afterAll(async () => {
  await router.stop();
  await new Promise((resolve) => standIn.close(resolve));
  await h.stop();
});

/** One refused request for `path`: its name, the raw bytes and the status it must get. */
interface Refusal {
  readonly name: string;
  readonly status: number;
  readonly code: string;
  request(path: string): string | Buffer;
}

const HOST = 'Host: shop.test';
const REFUSALS: readonly Refusal[] = [
  {
    name: 'a negative Content-Length',
    status: 400,
    code: 'invalid_request',
    request: (path) => `POST ${path} HTTP/1.1\r\n${HOST}\r\nContent-Length: -1\r\n\r\n`,
  },
  {
    name: 'a Content-Length that is not a number',
    status: 400,
    code: 'invalid_request',
    request: (path) => `POST ${path} HTTP/1.1\r\n${HOST}\r\nContent-Length: 1x\r\n\r\nx`,
  },
  {
    name: 'two different Content-Lengths',
    status: 400,
    code: 'invalid_request',
    request: (path) => `POST ${path} HTTP/1.1\r\n${HOST}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
  },
  {
    name: 'Content-Length with chunked encoding',
    status: 400,
    code: 'invalid_request',
    request: (path) => `POST ${path} HTTP/1.1\r\n${HOST}\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
  },
  {
    name: 'a malformed chunk size',
    status: 400,
    code: 'invalid_request',
    request: (path) => `POST ${path} HTTP/1.1\r\n${HOST}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
  },
  {
    name: 'a control character in a header value',
    status: 400,
    code: 'invalid_request',
    request: (path) => `GET ${path} HTTP/1.1\r\n${HOST}\r\nX-Trace: abc\u0001def\r\n\r\n`,
  },
  {
    // A header the contract gives its own code (issue 51): that code on /v1, the same status on pages.
    name: 'DEL in the Idempotency-Key header',
    status: 400,
    code: 'invalid_idempotency_key',
    request: (path) => `GET ${path} HTTP/1.1\r\n${HOST}\r\nIdempotency-Key: abc\u007fdef\r\n\r\n`,
  },
  {
    name: 'raw non-ASCII bytes in the path',
    status: 400,
    code: 'invalid_request',
    request: (path) =>
      Buffer.concat([Buffer.from(`GET ${path}`), Buffer.from([0xc3, 0xa9, 0xff]), Buffer.from(` HTTP/1.1\r\n${HOST}\r\n\r\n`)]),
  },
  {
    name: 'a 20 kB path',
    status: 431,
    code: 'headers_too_large',
    request: (path) => `GET ${path}${'a'.repeat(20_000)} HTTP/1.1\r\n${HOST}\r\n\r\n`,
  },
  {
    name: 'headers over 16 KiB',
    status: 431,
    code: 'headers_too_large',
    request: (path) =>
      `GET ${path} HTTP/1.1\r\n${HOST}\r\n${Array.from({ length: 40 }, (_, i) => `X-Padding-${i}: ${'p'.repeat(500)}`).join('\r\n')}\r\n\r\n`,
  },
  {
    name: 'an Expect other than 100-continue',
    status: 417,
    code: 'expectation_failed',
    request: (path) => `POST ${path} HTTP/1.1\r\n${HOST}\r\nExpect: 200-ok\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
  },
];

function expectApiError(response: RawResponse, refusal: Refusal): void {
  expect({
    status: response.status,
    contentType: response.headers['content-type'],
    cacheControl: response.headers['cache-control'],
  }).toEqual({
    status: refusal.status,
    contentType: 'application/json; charset=utf-8',
    cacheControl: 'no-store',
  });
  expect(JSON.parse(response.body)).toEqual({ error: { code: refusal.code, message: expect.any(String) } });
  expect(response.headers['x-request-id']).toMatch(/^req_[0-9A-Za-z]+$/);
}

function expectErrorPage(response: RawResponse, refusal: Refusal): void {
  expect({
    status: response.status,
    contentType: response.headers['content-type'],
    cacheControl: response.headers['cache-control'],
  }).toEqual({
    status: refusal.status,
    contentType: 'text/html; charset=utf-8',
    cacheControl: 'no-store',
  });
  expect(response.body).toContain(`<h1>${refusal.status} `);
  expect(response.body).not.toMatch(/<script|<img|<link|href=/i);
  expect(response.headers['content-security-policy']).toContain("default-src 'none'");
  expect(response.headers['x-request-id']).toMatch(/^req_[0-9A-Za-z]+$/);
}

describe.each(REFUSALS)('$name', (refusal) => {
  it(`through the front router on a /v1 path: ${refusal.status} with the API's error body, no backend reached`, async () => {
    const before = reachedStandIn;
    expectApiError(await rawRequest(router.url, refusal.request('/v1/checkout_sessions/')), refusal);
    expect(reachedStandIn).toBe(before);
  });

  it(`through the front router on a page or dashboard path: ${refusal.status} with a plain error page`, async () => {
    const before = reachedStandIn;
    expectErrorPage(await rawRequest(router.url, refusal.request('/pay/')), refusal);
    expectErrorPage(await rawRequest(router.url, refusal.request('/dashboard/')), refusal);
    // Not every path under the gateway is the API: its health checks and unknown paths get the page.
    expectErrorPage(await rawRequest(router.url, refusal.request('/v1x/')), refusal);
    expect(reachedStandIn).toBe(before);
  });

  it(`on the hosted pages' own listener: ${refusal.status} with a plain error page`, async () => {
    expectErrorPage(await rawRequest(h.pages.url, refusal.request('/pay/')), refusal);
  });
});

it('the router and the pages keep serving after the refusals', async () => {
  const session = await h.createSession();
  expect((await fetch(`${router.url}/pay/${session.id}`)).status).toBe(200);
  expect((await fetch(`${router.url}/v1/payments`)).status).toBe(200);
});
