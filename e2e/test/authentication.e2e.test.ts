// Risk covered: a request gets in without a valid key, a revoked key or a suspended account keeps working, or something other than the key decides the mode.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bodyOf, createSession, expectError, retrieve, VALID_BODY } from './e2e-helpers.ts';
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

describe('a missing, malformed, unknown or revoked key is 401 invalid_api_key', () => {
  it('refuses a request without an Authorization header', async () => {
    await expectError(await platform.request('POST', SESSIONS, { body: VALID_BODY }), 401, 'invalid_api_key');
    await expectError(await platform.request('GET', `${SESSIONS}/pay_01JD3Z8Q4V5W6X7Y8Z9A0B1C2D`), 401, 'invalid_api_key');
  });

  it.each([
    ['Basic scheme', (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`],
    ['Token scheme', (key: string) => `Token ${key}`],
    ['key without a scheme', (key: string) => key],
    ['Bearer without a key', () => 'Bearer'],
    ['Bearer with an empty key', () => 'Bearer '],
    ['two keys', (key: string) => `Bearer ${key} ${key}`],
  ])('refuses a non-Bearer or broken Authorization header (%s)', async (_name, header) => {
    const response = await platform.request('POST', SESSIONS, { body: VALID_BODY, headers: { authorization: header(merchant.testKey) } });
    await expectError(response, 401, 'invalid_api_key');
  });

  it.each([
    ['too short', 'sk_test_abc'],
    ['unknown mode', `sk_prod_${'a'.repeat(32)}`],
    ['no prefix', 'a'.repeat(40)],
    ['non-base62 characters', `sk_test_${'-'.repeat(32)}`],
    ['a valid key with a character too many', () => `${merchant.testKey}x`],
    ['a valid key with a character too few', () => merchant.testKey.slice(0, -1)],
  ])('refuses a malformed key (%s)', async (_name, key) => {
    const token = typeof key === 'string' ? key : key();
    await expectError(await platform.request('POST', SESSIONS, { key: token, body: VALID_BODY }), 401, 'invalid_api_key');
  });

  it('refuses a well-formed key that was never issued', async () => {
    for (const key of [`sk_test_${'A1b2C3d4'.repeat(4)}`, `sk_live_${'Z9y8X7w6'.repeat(4)}`]) {
      await expectError(await platform.request('POST', SESSIONS, { key, body: VALID_BODY }), 401, 'invalid_api_key');
    }
  });

  it('refuses a revoked key on the very next request, while the other keys keep working', async () => {
    const { key, secret } = await platform.operations.createKey(merchant.accountId, 'test');
    await createSession(platform, secret);
    await platform.operations.revokeKey(key.id);
    await expectError(await platform.request('POST', SESSIONS, { key: secret, body: VALID_BODY }), 401, 'invalid_api_key');
    await expectError(await platform.request('GET', `${SESSIONS}/pay_01JD3Z8Q4V5W6X7Y8Z9A0B1C2D`, { key: secret }), 401, 'invalid_api_key');
    await createSession(platform, merchant.testKey);
  });
});

describe('a suspended account is 403 suspended', () => {
  it('refuses both keys of a suspended account, and reactivation restores access', async () => {
    const shop = await platform.merchant();
    const session = await createSession(platform, shop.testKey);
    await platform.operations.suspend(shop.accountId);
    await expectError(await platform.request('POST', SESSIONS, { key: shop.testKey, body: VALID_BODY }), 403, 'suspended');
    await expectError(await platform.request('POST', SESSIONS, { key: shop.liveKey, body: VALID_BODY }), 403, 'suspended');
    await expectError(await retrieve(platform, shop.testKey, String(session['id'])), 403, 'suspended');

    await platform.operations.reactivate(shop.accountId);
    const read = await retrieve(platform, shop.testKey, String(session['id']));
    expect(read.status).toBe(200);
    expect(await bodyOf(read)).toEqual(session);
    await createSession(platform, shop.liveKey);
  });

  it('does not let another account be affected by a suspension', async () => {
    const suspended = await platform.merchant();
    await platform.operations.suspend(suspended.accountId);
    await createSession(platform, merchant.testKey);
  });

  it('answers 401 rather than 403 for a revoked key of a suspended account', async () => {
    const shop = await platform.merchant();
    const { key, secret } = await platform.operations.createKey(shop.accountId, 'test');
    await platform.operations.revokeKey(key.id);
    await platform.operations.suspend(shop.accountId);
    await expectError(await platform.request('POST', SESSIONS, { key: secret, body: VALID_BODY }), 401, 'invalid_api_key');
  });
});

describe('the key alone decides the mode', () => {
  it('creates Test sessions with a test key and Live sessions with a live key', async () => {
    expect(await createSession(platform, merchant.testKey)).toMatchObject({ livemode: false });
    expect(await createSession(platform, merchant.liveKey)).toMatchObject({ livemode: true });
  });

  it('ignores livemode in the body, the query string and headers', async () => {
    const fromTest = await platform.request('POST', `${SESSIONS}?livemode=true&mode=live`, {
      key: merchant.testKey,
      body: { ...VALID_BODY, livemode: true, mode: 'live' },
      headers: { 'x-mode': 'live', 'x-livemode': 'true' },
    });
    expect(fromTest.status).toBe(201);
    expect(await bodyOf(fromTest)).toMatchObject({ livemode: false });

    const fromLive = await platform.request('POST', `${SESSIONS}?livemode=false&mode=test`, {
      key: merchant.liveKey,
      body: { ...VALID_BODY, livemode: false, mode: 'test' },
      headers: { 'x-mode': 'test', 'x-livemode': 'false' },
    });
    expect(fromLive.status).toBe(201);
    expect(await bodyOf(fromLive)).toMatchObject({ livemode: true });
  });

  it('accepts the Bearer scheme in any letter case', async () => {
    const response = await platform.request('POST', SESSIONS, {
      body: VALID_BODY,
      headers: { authorization: `bearer ${merchant.testKey}` },
    });
    expect(response.status).toBe(201);
  });
});

describe('the error body', () => {
  it('is exactly { error: { code, message } } for authentication failures', async () => {
    const response = await platform.request('POST', SESSIONS, { body: VALID_BODY });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await bodyOf(response);
    expect(Object.keys(body)).toEqual(['error']);
    const error = body['error'] as Record<string, unknown>;
    expect(Object.keys(error).sort()).toEqual(['code', 'message']);
    expect(error['code']).toBe('invalid_api_key');
    expect(typeof error['message']).toBe('string');
    expect(String(error['message']).length).toBeGreaterThan(0);
  });

  it('never echoes the key back', async () => {
    const key = `sk_test_${'Q'.repeat(32)}`;
    const response = await platform.request('POST', SESSIONS, { key, body: VALID_BODY });
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain(key);
  });
});
