// Risk covered: a refusal that leaves without the API's error body (issue 19 item 3, issue 20 item 3):
// requests Node's HTTP parser rejects before Express (bad or duplicate Content-Length, Content-Length
// with chunked, control characters in a header, raw non-ASCII in the path, request line or headers
// over 16 KiB → 431) must still answer {"error": {code, message}}, Cache-Control: no-store and a
// request id, and the gateway must keep serving afterwards.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { expectError, VALID_BODY } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';
import { rawRequest, writeCounts, type RawResponse } from './raw-http.ts';

let platform: Platform;
let merchant: TestMerchant;

beforeAll(async () => {
  platform = await startPlatform();
  merchant = await platform.merchant();
});
afterAll(async () => {
  await platform.stop();
});

const BODY = JSON.stringify(VALID_BODY);

/** A create request as raw text; `headers` replace or add to the usual ones. */
function rawCreate(headers: string[], body = BODY, path = '/v1/checkout_sessions'): string {
  return [
    `POST ${path} HTTP/1.1`,
    'Host: gateway.test',
    `Authorization: Bearer ${merchant.testKey}`,
    'Content-Type: application/json',
    ...headers,
    '',
    body,
  ].join('\r\n');
}

/** The answer is the API's error body with `status` and `code`, no-store, a request id, JSON. */
function expectErrorAnswer(response: RawResponse, status: number, code: string): void {
  expect({
    status: response.status,
    body: JSON.parse(response.body) as unknown,
    cacheControl: response.headers['cache-control'],
    contentType: response.headers['content-type'],
  }).toEqual({
    status,
    body: { error: { code, message: expect.any(String) } },
    cacheControl: 'no-store',
    contentType: expect.stringMatching(/^application\/json/),
  });
  expect(response.headers['x-request-id']).toMatch(/^req_[0-9A-Za-z]+$/);
}

/** Sends `request`, expects the refusal, and proves nothing was written and the gateway still serves. */
async function expectRefused(request: string | Buffer, status: number, code: string): Promise<void> {
  const before = await writeCounts(platform);
  expectErrorAnswer(await rawRequest(platform.url, request), status, code);
  expect(await writeCounts(platform)).toEqual(before);
  expect((await platform.request('GET', '/v1/payments', { key: merchant.testKey })).status).toBe(200);
}

describe('requests the HTTP parser refuses answer with the error body', () => {
  it('Content-Length: -1 is 400 invalid_request with the error body', async () => {
    await expectRefused(rawCreate([`Content-Length: -1`]), 400, 'invalid_request');
  });

  it('two Content-Length headers are 400 invalid_request with the error body', async () => {
    const length = Buffer.byteLength(BODY);
    await expectRefused(rawCreate([`Content-Length: ${length}`, `Content-Length: ${length + 1}`]), 400, 'invalid_request');
  });

  it('Content-Length together with Transfer-Encoding: chunked is 400 invalid_request with the error body', async () => {
    const chunked = `${Buffer.byteLength(BODY).toString(16)}\r\n${BODY}\r\n0\r\n\r\n`;
    await expectRefused(
      rawCreate([`Content-Length: ${Buffer.byteLength(BODY)}`, 'Transfer-Encoding: chunked'], chunked),
      400,
      'invalid_request',
    );
  });

  // Issue 51, item 5: the contract names these headers' refusals; a byte the parser refuses in one of
  // them (DEL, a control character) is that refusal, not the parser's generic one.
  it.each([
    ['DEL', 'abc\u007fdef', '/v1/checkout_sessions'],
    ['a control character', 'abc\u0001def', '/v1/checkout_sessions'],
    ['DEL', 'abc\u007fdef', '/v1/payment_links'],
    ['DEL', 'abc\u007fdef', '/v1/webhook_endpoints'],
  ])('%s in the Idempotency-Key header is 400 invalid_idempotency_key with the error body (%s, %s)', async (_label, key, path) => {
    await expectRefused(
      rawCreate([`Content-Length: ${Buffer.byteLength(BODY)}`, `Idempotency-Key: ${key}`], BODY, path),
      400,
      'invalid_idempotency_key',
    );
  });

  it('DEL in the Authorization header is 401 invalid_api_key, in Content-Type 415, in another header 400 invalid_request', async () => {
    const length = `Content-Length: ${Buffer.byteLength(BODY)}`;
    const withAuthorization = (value: string): string =>
      [
        `POST /v1/checkout_sessions HTTP/1.1`,
        'Host: gateway.test',
        `Authorization: ${value}`,
        'Content-Type: application/json',
        length,
        '',
        BODY,
      ].join('\r\n');
    await expectRefused(withAuthorization(`Bearer ${merchant.testKey}\u007f`), 401, 'invalid_api_key');
    await expectRefused(withAuthorization(`Bearer \u0001${merchant.testKey}`), 401, 'invalid_api_key');
    await expectRefused(rawCreate([length, 'Content-Type: application/json\u007f']), 415, 'unsupported_media_type');
    await expectRefused(rawCreate([length, 'X-Trace: abc\u007fdef']), 400, 'invalid_request');
  });

  it('raw non-ASCII bytes in the path are 400 invalid_request with the error body', async () => {
    const request = Buffer.concat([
      Buffer.from('GET /v1/checkout_sessions/pay_'),
      Buffer.from([0xc3, 0xa9, 0xff]),
      Buffer.from(` HTTP/1.1\r\nHost: gateway.test\r\nAuthorization: Bearer ${merchant.testKey}\r\n\r\n`),
    ]);
    await expectRefused(request, 400, 'invalid_request');
  });

  it('a 20 KB path is 431 headers_too_large with the error body', async () => {
    await expectRefused(`GET /v1/checkout_sessions/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: gateway.test\r\n\r\n`, 431, 'headers_too_large');
  });

  it('a 20 KB query string is 431 headers_too_large with the error body', async () => {
    await expectRefused(`GET /v1/customers?email=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: gateway.test\r\n\r\n`, 431, 'headers_too_large');
  });

  it('headers over 16 KiB in total are 431 headers_too_large with the error body', async () => {
    const many = Array.from({ length: 40 }, (_, i) => `X-Padding-${i}: ${'p'.repeat(500)}`);
    await expectRefused(rawCreate([`Content-Length: ${Buffer.byteLength(BODY)}`, ...many]), 431, 'headers_too_large');
  });

  it('a request that is not HTTP at all is 400 invalid_request with the error body', async () => {
    await expectRefused('\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u01fc\u0003\u0003\r\n\r\n', 400, 'invalid_request');
  });
});

describe('refusals raised in the app answer with the error body and no-store', () => {
  it('a malformed percent-encoding in the path is 404 not_found with no-store', async () => {
    const response = await platform.request('GET', '/v1/payments/%E0%A4%A', { key: merchant.testKey });
    expect(response.headers.get('cache-control')).toBe('no-store');
    await expectError(response, 404, 'not_found');
  });

  it('a malformed percent-encoding in the query string is 400 with the parameter code and no-store', async () => {
    const response = await platform.request('GET', '/v1/customers?email=%E0%A4%A', { key: merchant.testKey });
    expect(response.headers.get('cache-control')).toBe('no-store');
    await expectError(response, 400, 'invalid_email', 'email');
  });

  it('a refusal before routing (no key, unknown route) has the error body and no-store', async () => {
    const unauthenticated = await platform.request('GET', '/v1/payments?limit=%ZZ');
    expect(unauthenticated.headers.get('cache-control')).toBe('no-store');
    await expectError(unauthenticated, 401, 'invalid_api_key');
    const unknown = await platform.request('GET', '/%E0%A4%A', {});
    expect(unknown.headers.get('cache-control')).toBe('no-store');
    await expectError(unknown, 404, 'not_found');
  });

  it('an Expect header other than 100-continue is 417 with the error body', async () => {
    const response = await rawRequest(platform.url, rawCreate([`Content-Length: ${Buffer.byteLength(BODY)}`, 'Expect: something-else']));
    expectErrorAnswer(response, 417, 'expectation_failed');
  });
});
