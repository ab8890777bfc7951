// Risk covered: the walking skeleton as a merchant meets it — create a session through the real
// gateway and read it back, with the demo flow of the README.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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

describe('create then retrieve', () => {
  it('returns 201 with an open session that GET returns again', async () => {
    const created = await platform.request('POST', '/v1/checkout_sessions', {
      key: merchant.testKey,
      body: { amount: '19.9', currency: 'usd', description: 'Blue mug' },
    });
    expect(created.status).toBe(201);
    const session = (await created.json()) as Record<string, unknown>;
    expect(session).toMatchObject({ object: 'checkout_session', status: 'open', amount: '19.90', currency: 'USD', livemode: false });
    const read = await platform.request('GET', `/v1/checkout_sessions/${String(session['id'])}`, { key: merchant.testKey });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(session);
  });
});
