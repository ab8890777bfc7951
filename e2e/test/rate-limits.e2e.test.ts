// Risk covered: a burst from one account exhausting the platform, or limits that each gateway replica
// counts on its own — per-account budgets across keys, modes and two gateway processes, the start
// budget, and the 429 answer with Retry-After: 60. Limits are lowered through configuration.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startGatewayProcess, type GatewayProcess } from './gateway-process.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

const REQUESTS = 10;
const STARTS = 3;
const LISTENS = 4;
let platform: Platform;
let second: GatewayProcess;

beforeAll(async () => {
  platform = await startPlatform({
    webhooks: true,
    gateway: { RATE_LIMIT_REQUESTS_PER_MINUTE: REQUESTS, RATE_LIMIT_STARTS_PER_MINUTE: STARTS, RATE_LIMIT_LISTEN_PER_MINUTE: LISTENS },
  });
  second = await startGatewayProcess(platform.gatewayConfig);
});
afterAll(async () => {
  await second.stop();
  await platform.stop();
});

async function get(baseUrl: string, key: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/payments?limit=1`, { headers: { authorization: `Bearer ${key}` } });
}

describe('requests per account', () => {
  it('counts every key and both modes of an account, across gateway processes, then answers 429 with Retry-After: 60', async () => {
    const merchant = await platform.merchant();
    const extraTestKey = (await platform.operations.createKey(merchant.accountId, 'test')).secret;
    const keys = [merchant.testKey, merchant.liveKey, extraTestKey];
    const statuses: number[] = [];
    for (let i = 0; i < REQUESTS; i += 1) {
      statuses.push((await get(i % 2 === 0 ? platform.url : second.url, keys[i % keys.length]!)).status);
    }
    expect(statuses).toEqual(Array.from({ length: REQUESTS }, () => 200));
    for (const [baseUrl, key] of [
      [platform.url, merchant.testKey],
      [second.url, merchant.liveKey],
    ] as const) {
      const refused = await get(baseUrl, key);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(refused.headers.get('cache-control')).toBe('no-store');
      expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
    }
  });

  it('leaves other accounts alone', async () => {
    const busy = await platform.merchant();
    const quiet = await platform.merchant();
    await Promise.all(Array.from({ length: REQUESTS + 2 }, () => get(platform.url, busy.testKey)));
    expect((await get(platform.url, busy.testKey)).status).toBe(429);
    expect((await get(second.url, quiet.testKey)).status).toBe(200);
  });

  it('does not count requests that fail authentication against any account', async () => {
    const merchant = await platform.merchant();
    // A well-formed key that differs from the real one in its last character (never equal to it).
    const wrongKey = `${merchant.testKey.slice(0, -1)}${merchant.testKey.endsWith('x') ? 'y' : 'x'}`;
    await Promise.all(Array.from({ length: REQUESTS + 2 }, () => get(platform.url, wrongKey)));
    expect((await get(platform.url, merchant.testKey)).status).toBe(200);
  });
});

describe('session starts per account', () => {
  async function session(merchant: TestMerchant): Promise<string> {
    const response = await platform.request('POST', '/v1/checkout_sessions', {
      key: merchant.testKey,
      body: { amount: '10.00', currency: 'USD', description: 'Chair', customer_email: 's@example.com' },
    });
    return ((await response.json()) as { id: string }).id;
  }

  it('allow about the configured number a minute, across processes, then 429', async () => {
    const merchant = await platform.merchant();
    const ids = [await session(merchant), await session(merchant)];
    const starts: number[] = [];
    for (let i = 0; i < STARTS; i += 1) {
      const response = await fetch(`${i % 2 === 0 ? platform.url : second.url}/v1/checkout_sessions/${ids[i % 2]!}/start`, {
        method: 'POST',
        headers: { authorization: `Bearer ${merchant.testKey}`, 'content-type': 'application/json' },
        body: '{}',
      });
      starts.push(response.status);
    }
    expect(starts).toEqual([200, 200, 200]);
    const refused = await platform.request('POST', `/v1/checkout_sessions/${ids[0]!}/start`, { key: merchant.testKey, body: {} });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
    // Other requests keep their own budget.
    expect((await platform.request('GET', `/v1/payments/${ids[0]!}`, { key: merchant.testKey })).status).toBe(200);
  });
});

describe('long polls of `hosted-checkout listen` (issue 44)', () => {
  const poll = (key: string): Promise<Response> =>
    fetch(`${platform.url}/v1/listen?wait=0`, { headers: { authorization: `Bearer ${key}` } });

  it('spend a budget of their own: a listener polling leaves the account its requests, and its own polls stop at their limit', async () => {
    const merchant = await platform.merchant();
    const polls: number[] = [];
    for (let i = 0; i < LISTENS; i += 1) polls.push((await poll(merchant.testKey)).status);
    expect(polls).toEqual(Array.from({ length: LISTENS }, () => 200));
    const statuses: number[] = [];
    for (let i = 0; i < REQUESTS; i += 1) statuses.push((await get(platform.url, merchant.testKey)).status);
    expect(statuses).toEqual(Array.from({ length: REQUESTS }, () => 200));
    const refused = await poll(merchant.testKey);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await get(platform.url, merchant.testKey)).status).toBe(429);
  });
});
