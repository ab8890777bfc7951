// Risk covered: the HTTP layer mishandles bodies (size, content type, non-object JSON), forgets Cache-Control or X-Request-Id on some answer, sends CORS headers, or answers an unknown route as something other than 404 not_found.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bodyOf, expectError, VALID_BODY } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

let platform: Platform;
let merchant: TestMerchant;

beforeAll(async () => {
  platform = await startPlatform();
  merchant = await platform.merchant();
});
afterAll(async () => {
  await platform.stop();
});

const SESSIONS = '/v1/checkout_sessions';
const KIB_64 = 64 * 1024;

/** A valid create body whose JSON text is exactly `bytes` long (padded with an unknown field). */
function bodyOfSize(bytes: number): string {
  const empty = JSON.stringify({ ...VALID_BODY, padding: '' });
  const text = JSON.stringify({ ...VALID_BODY, padding: 'p'.repeat(bytes - empty.length) });
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

/** POST without any Content-Type header (a Uint8Array body makes fetch add none). */
function postWithoutContentType(body: string): Promise<Response> {
  return fetch(`${platform.url}${SESSIONS}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.testKey}` },
    body: new TextEncoder().encode(body),
  });
}

describe('request body size: at most 64 KiB', () => {
  it('accepts a body of exactly 64 KiB', async () => {
    const response = await platform.request('POST', SESSIONS, { key: merchant.testKey, body: bodyOfSize(KIB_64) });
    expect(response.status).toBe(201);
  });

  it('refuses a body one byte over 64 KiB with 413 payload_too_large', async () => {
    await expectError(
      await platform.request('POST', SESSIONS, { key: merchant.testKey, body: bodyOfSize(KIB_64 + 1) }),
      413,
      'payload_too_large',
    );
  });

  it('refuses a body of a megabyte with 413 payload_too_large', async () => {
    await expectError(
      await platform.request('POST', SESSIONS, { key: merchant.testKey, body: bodyOfSize(1024 * 1024) }),
      413,
      'payload_too_large',
    );
  });
});

describe('Content-Type must be application/json', () => {
  it('accepts application/json with a UTF-8 charset', async () => {
    const response = await platform.request('POST', SESSIONS, {
      key: merchant.testKey,
      body: JSON.stringify(VALID_BODY),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(201);
  });

  it.each([
    'text/plain',
    'text/plain; charset=utf-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'text/json',
  ])('refuses %s with 415 unsupported_media_type, even when the body is JSON', async (contentType) => {
    const response = await platform.request('POST', SESSIONS, {
      key: merchant.testKey,
      body: JSON.stringify(VALID_BODY),
      headers: { 'content-type': contentType },
    });
    await expectError(response, 415, 'unsupported_media_type');
  });

  it('refuses a body without a Content-Type with 415 unsupported_media_type', async () => {
    await expectError(await postWithoutContentType(JSON.stringify(VALID_BODY)), 415, 'unsupported_media_type');
  });
});

describe('the body must be a JSON object', () => {
  it.each([
    ['truncated JSON', '{"amount": "25.00", "currency": "USD"'],
    ['single quotes', "{'amount': '25.00'}"],
    ['a trailing comma', '{"amount": "25.00",}'],
    ['plain text', 'amount=25.00&currency=USD'],
    ['an empty body', ''],
  ])('refuses invalid JSON text (%s) with 400 invalid_json', async (_name, text) => {
    await expectError(await platform.request('POST', SESSIONS, { key: merchant.testKey, body: text }), 400, 'invalid_json');
  });

  it.each([
    ['an array', '[]'],
    ['an array holding an object', JSON.stringify([VALID_BODY])],
    ['a string', '"hello"'],
    ['null', 'null'],
    ['a number', '42'],
    ['a boolean', 'true'],
  ])('refuses a JSON value that is not an object (%s) with 400 invalid_json', async (_name, text) => {
    await expectError(await platform.request('POST', SESSIONS, { key: merchant.testKey, body: text }), 400, 'invalid_json');
  });
});

describe('headers on every response', () => {
  type Headers = Record<string, string>;
  const cases: [string, (headers: Headers) => Promise<Response>, number][] = [
    ['a 201 create', (headers) => platform.request('POST', SESSIONS, { key: merchant.testKey, body: VALID_BODY, headers }), 201],
    [
      'a 400 validation error',
      (headers) => platform.request('POST', SESSIONS, { key: merchant.testKey, body: { ...VALID_BODY, amount: 5 }, headers }),
      400,
    ],
    ['a 400 invalid_json', (headers) => platform.request('POST', SESSIONS, { key: merchant.testKey, body: '{', headers }), 400],
    ['a 401', (headers) => platform.request('POST', SESSIONS, { body: VALID_BODY, headers }), 401],
    [
      'a 404 unknown session',
      (headers) => platform.request('GET', `${SESSIONS}/pay_01ARZ3NDEKTSV4RRFFQ69G5FAV`, { key: merchant.testKey, headers }),
      404,
    ],
    ['a 404 unknown route', (headers) => platform.request('GET', '/v1/nothing_here', { key: merchant.testKey, headers }), 404],
    ['a 404 route outside /v1', (headers) => platform.request('GET', '/nothing-here', { headers }), 404],
    ['a 413', (headers) => platform.request('POST', SESSIONS, { key: merchant.testKey, body: bodyOfSize(KIB_64 + 1), headers }), 413],
    [
      'a 415',
      (headers) =>
        platform.request('POST', SESSIONS, { key: merchant.testKey, body: '{}', headers: { ...headers, 'content-type': 'text/plain' } }),
      415,
    ],
  ];

  it.each(cases)('carries Cache-Control: no-store and an X-Request-Id on %s', async (_name, send, status) => {
    const response = await send({});
    expect(response.status).toBe(status);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-request-id')).toMatch(/^\S+$/);
  });

  it('gives every response its own X-Request-Id', async () => {
    const responses = await Promise.all(Array.from({ length: 5 }, () => platform.request('GET', '/nothing-here')));
    const ids = responses.map((response) => response.headers.get('x-request-id'));
    expect(new Set(ids).size).toBe(5);
  });

  it.each(cases)('carries no Access-Control-* header on %s, also when the request has an Origin header', async (_name, send, status) => {
    const variants: Headers[] = [{}, { origin: 'https://shop.example' }];
    for (const headers of variants) {
      const response = await send(headers);
      expect(response.status).toBe(status);
      expect(accessControlHeaders(response)).toEqual([]);
    }
  });
});

/** Names of Access-Control-* response headers. */
function accessControlHeaders(response: Response): string[] {
  return [...response.headers.keys()].filter((name) => name.toLowerCase().startsWith('access-control-'));
}

describe('no CORS: the API is server to server', () => {
  const ORIGIN = 'https://evil.example';

  it.each([SESSIONS, `${SESSIONS}/pay_01ARZ3NDEKTSV4RRFFQ69G5FAV`, '/v1/nothing_here', '/nothing-here'])(
    'answers an OPTIONS preflight to %s with no Access-Control-* header',
    async (path) => {
      for (const key of [undefined, merchant.testKey]) {
        const response = await platform.request('OPTIONS', path, {
          key,
          headers: {
            origin: ORIGIN,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization, content-type',
          },
        });
        expect(accessControlHeaders(response)).toEqual([]);
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(response.headers.get('x-request-id')).toBeTruthy();
      }
    },
  );

  it('answers requests that carry an Origin header with no Access-Control-* header', async () => {
    const created = await platform.request('POST', SESSIONS, { key: merchant.testKey, body: VALID_BODY, headers: { origin: ORIGIN } });
    expect(created.status).toBe(201);
    expect(accessControlHeaders(created)).toEqual([]);
    const session = await bodyOf(created);
    const read = await platform.request('GET', `${SESSIONS}/${String(session['id'])}`, {
      key: merchant.testKey,
      headers: { origin: ORIGIN },
    });
    expect(read.status).toBe(200);
    expect(accessControlHeaders(read)).toEqual([]);
    const refused = await platform.request('POST', SESSIONS, { body: VALID_BODY, headers: { origin: ORIGIN } });
    expect(refused.status).toBe(401);
    expect(accessControlHeaders(refused)).toEqual([]);
  });
});

describe('unknown routes', () => {
  it.each([
    ['GET', '/v1/nothing_here'],
    ['GET', '/v1/checkout_sessions'],
    ['POST', '/v1/checkout_sessions/pay_01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    ['DELETE', '/v1/checkout_sessions/pay_01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    ['PUT', '/v1/checkout_sessions'],
    ['GET', '/v2/checkout_sessions'],
    ['GET', '/'],
  ])('answers %s %s with 404 not_found', async (method, path) => {
    const body = method === 'GET' || method === 'DELETE' ? undefined : VALID_BODY;
    await expectError(await platform.request(method, path, { key: merchant.testKey, body }), 404, 'not_found');
  });
});
