// Risk covered: the published OpenAPI document is unreachable without a key, cached by a proxy, or differs from the committed docs/openapi.json.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OPENAPI_FILE } from '@hc/gateway/testing';
import { startPlatform, type Platform } from './platform-harness.ts';

let platform: Platform;

beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(async () => {
  await platform.stop();
});

describe('GET /v1/openapi.json', () => {
  it('serves the committed document without an API key, never cached', async () => {
    const response = await platform.request('GET', '/v1/openapi.json');
    expect({ status: response.status, cache: response.headers.get('cache-control'), type: response.headers.get('content-type') }).toEqual({
      status: 200,
      cache: 'no-store',
      type: 'application/json; charset=utf-8',
    });
    expect(await response.text()).toBe(readFileSync(OPENAPI_FILE, 'utf8'));
  });

  it('still requires a key for every other /v1 path', async () => {
    const response = await platform.request('GET', '/v1/payments');
    expect(response.status).toBe(401);
  });
});
