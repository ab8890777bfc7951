import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { wrkLoad, wrkScript } from './wrk.ts';

/** What the server saw: every request's method, path, headers and body. */
interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  key: string | undefined;
  contentType: string | undefined;
  body: string;
}

describe('wrkLoad (the benchmark load generator, docs/adr/0068)', () => {
  const seen: Seen[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        seen.push({
          method: req.method ?? '',
          path: req.url ?? '',
          authorization: req.headers.authorization,
          key: req.headers['idempotency-key'] as string | undefined,
          contentType: req.headers['content-type'],
          body,
        });
        const status = req.url === '/missing' ? 404 : req.method === 'POST' ? 201 : 200;
        res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the request as given and counts every answer, with latencies', async () => {
    seen.length = 0;
    const body = JSON.stringify({ amount: '25.00', description: 'a ]] bracket and "quotes"' });
    const result = await wrkLoad({
      url: `${base}/v1/checkout_sessions`,
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_x', 'content-type': 'application/json' },
      body,
      connections: 4,
      duration: 1,
    });
    expect(result.errors).toBe(0);
    expect(result.requests).toBeGreaterThan(50);
    // wrk counts completed answers; the server may have seen a few more that were cut off at the end.
    expect(seen.length).toBeGreaterThanOrEqual(result.requests);
    expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms);
    expect(result.p50Ms).toBeGreaterThan(0);
    for (const request of seen) {
      expect(request).toMatchObject({
        method: 'POST',
        path: '/v1/checkout_sessions',
        authorization: 'Bearer sk_test_x',
        contentType: 'application/json',
        body,
      });
      expect(request.key).toBeUndefined();
    }
  });

  it('gives every request an Idempotency-Key of its own when asked to', async () => {
    seen.length = 0;
    const result = await wrkLoad({
      url: `${base}/v1/checkout_sessions`,
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_x', 'content-type': 'application/json' },
      body: '{"amount":"1.00"}',
      freshIdempotencyKey: true,
      connections: 4,
      duration: 1,
    });
    expect(result.errors).toBe(0);
    const keys = seen.map((request) => request.key);
    expect(keys.every((key) => typeof key === 'string' && key.startsWith('bench-'))).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
    expect(seen.every((request) => request.authorization === 'Bearer sk_test_x' && request.body === '{"amount":"1.00"}')).toBe(true);
  });

  it('counts refused answers as errors', async () => {
    const result = await wrkLoad({ url: `${base}/missing`, connections: 2, duration: 1 });
    expect(result.requests).toBeGreaterThan(0);
    expect(result.errors).toBe(result.requests);
  });

  it('fails, rather than giving a figure, when nothing answers', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(wrkLoad({ url: `http://127.0.0.1:${port}/`, connections: 2, duration: 1 })).rejects.toThrow(/unable to connect/);
  });

  it('writes any text as a Lua string, brackets and newlines included', () => {
    const script = wrkScript({ url: base, body: '\nfirst ]] then ]=] end', connections: 1, duration: 1 }, 'n');
    expect(script).toContain('wrk.body = [==[\n\nfirst ]] then ]=] end]==]');
  });
});
