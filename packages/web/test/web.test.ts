// Risk covered: a page server answering without its request id or strict headers (a CSP that lets an
// injected script run, a cached page of customer data), an access log that writes a query's token or
// a searched email, a forged cross-site form taken for our own, or a form that is not UTF-8 read with
// U+FFFD or raw escapes in its fields. Real Express over real HTTP.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import { createLogger } from '@hc/logging';
import { accessLog, assignRequestId, formBodyProblem, isSameOrigin, strictFormBody, strictPageHeaders } from '../src/index.ts';

const lines: Record<string, unknown>[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  const logger = createLogger('web-test', {
    level: 'info',
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const app = express();
  app.use(assignRequestId, strictPageHeaders(["'self'"]), accessLog(logger));
  app.post('/form', (req, res) => {
    res.status(isSameOrigin(req) ? 204 : 403).end();
  });
  app.post('/strict-form', strictFormBody({ limit: '1kb', parameterLimit: 5 }), (req, res) => {
    res.json(req.body);
  });
  app.use((error: { status?: number; message: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res
      .status(error.status ?? 500)
      .type('text/plain')
      .send(error.message);
  });
  app.get('/page', (_req, res) => {
    res.type('html').send('<p>hello</p>');
  });
  app.get('/broken', (_req, res) => {
    res.status(500).end();
  });
  // Answers only after the client has gone: the line must say the request was aborted.
  app.get('/slow', (_req, res) => {
    res.on('close', () => setTimeout(() => res.end(), 20));
  });
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
async function waitFor(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

afterAll(() => {
  server.close();
});

describe('page server pieces', () => {
  it('give every answer a request id, the strict policy and no-store, and log only method, path and status', async () => {
    const response = await fetch(`${base}/page?token=secret-token&email=ann%40example.com`);
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none';script-src 'self';style-src 'self';img-src 'self';connect-src 'self';form-action 'self';frame-ancestors 'none';base-uri 'none'",
    );
    const line = lines.find((l) => l['requestId'] === requestId)!;
    expect(line).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', path: '/page' }, res: { status: 200 } });
    expect(typeof line['responseTime']).toBe('number');
    expect(JSON.stringify(line)).not.toMatch(/secret-token|example\.com/);
  });

  it('logs a 5xx answer at error level and a request the client gave up on as aborted, each once', async () => {
    const broken = await fetch(`${base}/broken`);
    const brokenId = broken.headers.get('x-request-id');
    const aborted = new AbortController();
    const slow = fetch(`${base}/slow?token=secret-token`, { signal: aborted.signal }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    aborted.abort();
    await slow;
    await waitFor(() => lines.some((l) => (l['req'] as { path?: string } | undefined)?.path === '/slow'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines.filter((l) => l['requestId'] === brokenId)).toEqual([
      expect.objectContaining({ level: 50, msg: 'request errored', res: { status: 500 } }),
    ]);
    const slowLines = lines.filter((l) => (l['req'] as { path?: string } | undefined)?.path === '/slow');
    expect(slowLines).toEqual([expect.objectContaining({ level: 40, msg: 'request aborted', req: { method: 'GET', path: '/slow' } })]);
    expect(JSON.stringify(slowLines)).not.toContain('secret-token');
  });

  it.each([
    [{ 'sec-fetch-site': 'same-origin' }, 204],
    [{ 'sec-fetch-site': 'cross-site' }, 403],
    [{ 'sec-fetch-site': 'same-site' }, 403],
    [{ origin: 'http://evil.example' }, 403],
    [{}, 204],
  ])('takes a form with %j as same-origin: %i', async (headers, status) => {
    expect((await fetch(`${base}/form`, { method: 'POST', headers })).status).toBe(status);
  });

  it('takes a form whose Origin is this host (browsers without Sec-Fetch-Site)', async () => {
    expect((await fetch(`${base}/form`, { method: 'POST', headers: { origin: base } })).status).toBe(204);
  });
});

describe('strict form bodies', () => {
  it.each([
    ['plain ASCII', 'email=ann%40example.com&country=US'],
    ['UTF-8 bytes as they are', 'name=Zo\u00eb&city=M\u00fcnchen'],
    ['percent-encoded UTF-8, a pair beyond the BMP included', 'name=Zo%C3%AB&note=%F0%9F%98%80+ok'],
    ['an empty body', ''],
  ])('takes %s', (_label, text) => {
    expect(formBodyProblem(Buffer.from(text, 'utf8'), 'utf-8')).toBeUndefined();
  });

  it.each([
    ['a raw 0xFF byte', Buffer.from([0x61, 0x3d, 0xff])],
    ['a Latin-1 é byte', Buffer.from([0x61, 0x3d, 0x72, 0xe9])],
    ['an encoded surrogate (CESU)', Buffer.from([0x61, 0x3d, 0xed, 0xa0, 0x80])],
    ['%FF', Buffer.from('a=%FF')],
    ['an overlong %C0%AF', Buffer.from('a=%C0%AF')],
    ['a sequence cut short by the next field', Buffer.from('a=%E2%82&b=%AC')],
    ['a lone %', Buffer.from('a=100%')],
    ['a malformed escape in a name', Buffer.from('%ZZ=1')],
  ])('refuses %s', (_label, raw) => {
    expect(formBodyProblem(raw, 'utf-8')).toMatch(/UTF-8/);
  });

  it('leaves an ISO-8859-1 form (the one other charset body-parser takes) alone', () => {
    expect(formBodyProblem(Buffer.from([0x61, 0x3d, 0xe9]), 'iso-8859-1')).toBeUndefined();
  });

  it('over HTTP: a form that is not UTF-8 is an error with status 400 before any handler; a good one is parsed', async () => {
    const post = (body: Buffer) =>
      fetch(`${base}/strict-form`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    const bad = await post(Buffer.from([0x65, 0x3d, 0xff]));
    expect([bad.status, await bad.text()]).toEqual([400, 'The form is not valid UTF-8.']);
    const escaped = await post(Buffer.from('e=%FF'));
    expect([escaped.status, await escaped.text()]).toEqual([400, 'The form holds a value that is not valid percent-encoded UTF-8.']);
    const good = await post(Buffer.from('e=Zo%C3%AB&f=M\u00fcnchen', 'utf8'));
    expect([good.status, await good.json()]).toEqual([200, { e: 'Zo\u00eb', f: 'M\u00fcnchen' }]);
  });
});
