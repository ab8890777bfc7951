// Risk covered: bodies and headers crafted to crash or poison the gateway, and secrets leaking
// into logs — a key, an idempotency key or a buyer's email must never appear in a log line.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startGatewayProcess, type GatewayProcess } from './gateway-process.ts';
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

const order = { amount: '12.00', currency: 'USD', description: 'Rug' };

describe('JSON parsing guards', () => {
  it('refuses absurdly deep nesting with invalid_json, and keeps serving', async () => {
    const deep = `{"amount":"12.00","currency":"USD","description":"Rug","metadata":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const refused = await platform.request('POST', '/v1/checkout_sessions', { key: merchant.testKey, body: deep });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 'invalid_json' } });
    expect((await platform.request('POST', '/v1/checkout_sessions', { key: merchant.testKey, body: order })).status).toBe(201);
  });

  it('ignores a top-level "__proto__" field without touching any prototype', async () => {
    const body = `{"__proto__":{"polluted":"yes","status":"paid"},"amount":"12.00","currency":"USD","description":"Rug"}`;
    const created = await platform.request('POST', '/v1/checkout_sessions', { key: merchant.testKey, body });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ status: 'open' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('malformed headers', () => {
  it.each([
    ['two tokens', 'Bearer a b'],
    ['a lowercase scheme with a bad token', 'bearer sk_test_'],
    ['Basic credentials', 'Basic dXNlcjpwYXNz'],
  ])('Authorization with %s is 401 invalid_api_key', async (_label, authorization) => {
    const response = await platform.request('GET', '/v1/payments', { headers: { authorization } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
  });

  it('a JSON body in another charset is 415 unsupported_media_type', async () => {
    const response = await platform.request('POST', '/v1/checkout_sessions', {
      key: merchant.testKey,
      body: JSON.stringify(order),
      headers: { 'content-type': 'application/json; charset=latin1' },
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });
  });
});

describe('logs', () => {
  let gateway: GatewayProcess;

  beforeAll(async () => {
    gateway = await startGatewayProcess({ ...platform.gatewayConfig, LOG_LEVEL: 'debug' });
  });

  it('never contain an API key, an idempotency key or personal data', async () => {
    const idempotencyKey = `secret-idem-${Date.now()}`;
    const email = `private.person.${Date.now()}@example.com`;
    const revoked = await platform.operations.createKey(merchant.accountId, 'test');
    await platform.operations.revokeKey(revoked.key.id);
    const requests = [
      fetch(`${gateway.url}/v1/checkout_sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${merchant.testKey}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify({ ...order, customer_email: email }),
      }),
      fetch(`${gateway.url}/v1/payments`, { headers: { authorization: `Bearer ${revoked.secret}` } }),
      fetch(`${gateway.url}/v1/payments`, { headers: { authorization: `Bearer ${merchant.liveKey}` } }),
      fetch(`${gateway.url}/v1/checkout_sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${merchant.testKey}`, 'content-type': 'application/json' },
        body: `{"customer_email":"${email}", broken`,
      }),
    ];
    const statuses = (await Promise.all(requests)).map((r) => r.status);
    expect(statuses).toEqual([201, 401, 200, 400]);
    await gateway.stop();
    const logs = gateway.output();
    expect(logs).toContain('"status":201');
    for (const secret of [merchant.testKey, merchant.liveKey, revoked.secret, idempotencyKey, email]) {
      expect(logs).not.toContain(secret);
    }
  });
});
