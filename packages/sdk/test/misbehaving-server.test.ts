// Risk covered (issue 44): a call that hangs forever on a hung server, a raw `TypeError: fetch failed`
// on a reset, a proxy's HTML 502 reported as an API error, 500/502/504 or 409 idempotency_conflict not
// retried, an HTTP-date Retry-After ignored, a create retried under a new key, a write without a key
// retried, errors a merchant cannot tell apart with instanceof, a User-Agent that does not name the SDK.
// Over a real local node:http server that misbehaves on purpose; no assertion on how long anything
// took except lower bounds (a loaded machine only makes waits longer).
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  createClient,
  HostedCheckoutApiError,
  HostedCheckoutConnectionError,
  HostedCheckoutError,
  HostedCheckoutTimeoutError,
  HostedCheckoutUnexpectedResponseError,
  SDK_VERSION,
} from '../src/index.ts';
import { retryAfterMs } from '../src/transport.ts';

/** What the server does with the n-th request: answer, hang (never answer) or reset the connection. */
interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}
type Behaviour = Answer | 'hang' | 'reset';

let server: Server | undefined;
afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
  server = undefined;
});

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  /** Date.now() when the request arrived (to check a wait's lower bound). */
  readonly at: number;
}

async function misbehave(behaviours: Behaviour[]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, at: Date.now() });
    const behaviour = behaviours[Math.min(seen.length - 1, behaviours.length - 1)]!;
    req.resume();
    if (behaviour === 'hang') return;
    if (behaviour === 'reset') return void req.socket.destroy();
    res.writeHead(behaviour.status, { 'content-type': 'application/json', 'x-request-id': `req_${seen.length}`, ...behaviour.headers });
    res.end(behaviour.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json = (status: number, body: unknown, headers?: Record<string, string>): Answer => ({
  status,
  body: JSON.stringify(body),
  headers,
});
const apiError = (status: number, code: string): Answer => json(status, { error: { code, message: code } });
const SESSION = { id: 'pay_1', object: 'checkout_session' };
const NEW_SESSION = { amount: '1.00', currency: 'USD', description: 'Mug' } as const;
const HTML_502 = { status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>', headers: { 'content-type': 'text/html' } };
/** Retries without real back-off where the wait is not what is tested. */
const fast = { maxRetryDelayMs: 1 };

async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error('the call succeeded');
    },
    (error: unknown) => error,
  );
}

describe('timeouts', () => {
  it('ends a call to a hung server with HostedCheckoutTimeoutError (a connection error), per try, after retrying', async () => {
    const { url, seen } = await misbehave(['hang']);
    const client = createClient({ apiKey: 'k', baseUrl: url, timeout: 200, maxNetworkRetries: 1, ...fast });
    const error = await failure(client.payments.retrieve('pay_1'));
    expect(error).toBeInstanceOf(HostedCheckoutTimeoutError);
    expect(error).toBeInstanceOf(HostedCheckoutConnectionError);
    expect(error).toBeInstanceOf(HostedCheckoutError);
    expect(error).toMatchObject({ name: 'HostedCheckoutTimeoutError', timeoutMs: 200 });
    expect(seen).toHaveLength(2);
  });

  it('takes a per-request timeout over the client default', async () => {
    const { url, seen } = await misbehave(['hang']);
    const client = createClient({ apiKey: 'k', baseUrl: url, timeout: 600_000 });
    const error = await failure(client.payments.retrieve('pay_1', { timeout: 200, maxNetworkRetries: 0 }));
    expect(error).toMatchObject({ name: 'HostedCheckoutTimeoutError', timeoutMs: 200 });
    expect(seen).toHaveLength(1);
  });

  it('rejects with your AbortSignal’s reason, untouched and not retried, when you abort', async () => {
    const { url, seen } = await misbehave(['hang']);
    const stop = new AbortController();
    const call = createClient({ apiKey: 'k', baseUrl: url }).payments.retrieve('pay_1', { signal: stop.signal });
    while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort(new Error('shop shutting down'));
    await expect(call).rejects.toThrow('shop shutting down');
    expect(seen).toHaveLength(1);
  });
});

describe('connection errors', () => {
  it('retries a reset GET and succeeds', async () => {
    const { url, seen } = await misbehave(['reset', json(200, SESSION)]);
    expect(await createClient({ apiKey: 'k', baseUrl: url, ...fast }).checkoutSessions.retrieve('pay_1')).toEqual(SESSION);
    expect(seen).toHaveLength(2);
  });

  it('throws HostedCheckoutConnectionError (with the cause) once the retries are spent, never a raw TypeError', async () => {
    const { url, seen } = await misbehave(['reset']);
    const error = await failure(createClient({ apiKey: 'k', baseUrl: url, maxNetworkRetries: 2, ...fast }).payments.retrieve('pay_1'));
    expect(error).toBeInstanceOf(HostedCheckoutConnectionError);
    expect(error).not.toBeInstanceOf(HostedCheckoutTimeoutError);
    expect((error as Error).cause).toBeDefined();
    expect(seen).toHaveLength(3);
  });

  it('does not retry a write without an Idempotency-Key (start) after a reset', async () => {
    const { url, seen } = await misbehave(['reset', json(200, SESSION)]);
    const error = await failure(createClient({ apiKey: 'k', baseUrl: url, ...fast }).checkoutSessions.start('pay_1'));
    expect(error).toBeInstanceOf(HostedCheckoutConnectionError);
    expect(seen).toHaveLength(1);
  });
});

describe('retried answers', () => {
  it.each([500, 502, 503, 504, 429])('retries a create after %i under the same Idempotency-Key', async (status) => {
    const { url, seen } = await misbehave([apiError(status, 'internal_error'), json(201, SESSION)]);
    expect(await createClient({ apiKey: 'k', baseUrl: url, ...fast }).checkoutSessions.create(NEW_SESSION)).toEqual(SESSION);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]!.headers['idempotency-key']).toBe(seen[0]!.headers['idempotency-key']);
  });

  it('retries 409 idempotency_conflict (the first try still running) but not another 409', async () => {
    const conflict = await misbehave([apiError(409, 'idempotency_conflict'), json(201, SESSION)]);
    const client = createClient({ apiKey: 'k', baseUrl: conflict.url, ...fast });
    expect(
      await client.paymentLinks.create({ amount: '30', currency: 'EUR', description: 'Invoice' }, { idempotencyKey: 'inv-12' }),
    ).toEqual(SESSION);
    expect(conflict.seen.map((req) => req.headers['idempotency-key'])).toEqual(['inv-12', 'inv-12']);
  });

  it('answers another 409 at once as HostedCheckoutApiError', async () => {
    const { url, seen } = await misbehave([apiError(409, 'no_payout_wallet')]);
    const error = await failure(createClient({ apiKey: 'k', baseUrl: url, ...fast }).checkoutSessions.create(NEW_SESSION));
    expect(error).toBeInstanceOf(HostedCheckoutApiError);
    expect(error).toMatchObject({ status: 409, code: 'no_payout_wallet', requestId: 'req_1' });
    expect(seen).toHaveLength(1);
  });

  it('does not retry a 500 on a write without a key', async () => {
    const { url, seen } = await misbehave([apiError(500, 'internal_error'), json(200, SESSION)]);
    const error = await failure(createClient({ apiKey: 'k', baseUrl: url, ...fast }).payments.simulate('pay_1', 'paid'));
    expect(error).toMatchObject({ status: 500, code: 'internal_error' });
    expect(seen).toHaveLength(1);
  });

  it('waits until an HTTP-date Retry-After', async () => {
    // Two seconds ahead, at whole-second precision: at least one second from when it was sent.
    const { url, seen } = await misbehave([
      { ...apiError(503, 'service_unavailable'), headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() } },
      json(200, SESSION),
    ]);
    await createClient({ apiKey: 'k', baseUrl: url }).payments.retrieve('pay_1');
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('Sun, 29 Nov 2026 06:00:00 GMT');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Sun, 29 Nov 2026 06:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sun, 29 Nov 2026 05:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('answers that are not the API', () => {
  it('reports a proxy’s HTML 502 as HostedCheckoutUnexpectedResponseError after retrying it, not as an API error', async () => {
    const { url, seen } = await misbehave([HTML_502]);
    const error = await failure(createClient({ apiKey: 'k', baseUrl: url, maxNetworkRetries: 1, ...fast }).orders.retrieve('ord_1'));
    expect(error).toBeInstanceOf(HostedCheckoutUnexpectedResponseError);
    expect(error).not.toBeInstanceOf(HostedCheckoutApiError);
    expect(error).toMatchObject({ status: 502, requestId: 'req_2' });
    expect((error as HostedCheckoutUnexpectedResponseError).body).toContain('502 Bad Gateway');
    expect(seen).toHaveLength(2);
  });

  it('refuses a 200 whose body is not JSON, and an error without the API’s shape', async () => {
    const { url } = await misbehave([
      { status: 200, body: 'OK', headers: { 'content-type': 'text/plain' } },
      json(400, { message: 'nope' }),
    ]);
    const client = createClient({ apiKey: 'k', baseUrl: url });
    await expect(client.payments.retrieve('pay_1')).rejects.toBeInstanceOf(HostedCheckoutUnexpectedResponseError);
    await expect(client.payments.retrieve('pay_1')).rejects.toMatchObject({ name: 'HostedCheckoutUnexpectedResponseError', status: 400 });
  });
});

describe('User-Agent', () => {
  it('names the SDK, its version (package.json’s) and Node', async () => {
    const { url, seen } = await misbehave([json(200, SESSION)]);
    await createClient({ apiKey: 'k', baseUrl: url }).checkoutSessions.retrieve('pay_1');
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(SDK_VERSION).toBe(manifest.version);
    expect(seen[0]!.headers['user-agent']).toBe(`hosted-checkout-sdk/${manifest.version} node/${process.version}`);
  });
});
