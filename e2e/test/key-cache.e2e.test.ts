// Risk covered: the per-process key cache (docs/adr/0085, 0108) keeps a revoked key or a suspended account working
// on a gateway that cached it, or keeps using cached keys past its lease while the accounts context does not answer.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, expectError, VALID_BODY } from './e2e-helpers.ts';
import { startGatewayProcess, type GatewayProcess } from './gateway-process.ts';
import { startPlatform, type Platform } from './platform-harness.ts';

let platform: Platform;
let second: GatewayProcess;

beforeAll(async () => {
  platform = await startPlatform();
  second = await startGatewayProcess(platform.gatewayConfig);
});
afterAll(async () => {
  await second?.stop();
  await platform?.stop();
});

const SESSIONS = '/v1/checkout_sessions';

/** A create through one gateway: the first gateway in process, or the second as a process of its own. */
function createOn(gateway: 'first' | 'second', key: string): Promise<Response> {
  if (gateway === 'first') return platform.request('POST', SESSIONS, { key, body: VALID_BODY });
  return fetch(`${second.url}${SESSIONS}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(VALID_BODY),
  });
}

/** A read by id through one gateway: its route starts its work on the cache's guess (docs/adr/0067, 0103). */
function readOn(gateway: 'first' | 'second', key: string, id: string): Promise<Response> {
  if (gateway === 'first') return platform.request('GET', `/v1/payments/${id}`, { key });
  return fetch(`${second.url}/v1/payments/${id}`, { headers: { authorization: `Bearer ${key}` } });
}

/** Both gateways answered with this key (so both cached it). */
async function warm(key: string): Promise<void> {
  for (const gateway of ['first', 'second'] as const) expect((await createOn(gateway, key)).status).toBe(201);
}

describe('a change to a key or account reaches every gateway that cached it', () => {
  it('refuses a revoked key on the next request on both gateways, though both had it cached', async () => {
    const shop = await platform.merchant();
    const { key, secret } = await platform.operations.createKey(shop.accountId, 'test');
    await warm(secret);
    const created = await createOn('first', secret);
    const { id } = (await created.json()) as { id: string };
    for (const gateway of ['first', 'second'] as const) expect((await readOn(gateway, secret, id)).status).toBe(200);
    await platform.operations.revokeKey(key.id);
    // A read by id first: the cache still holds the key as the revocation commits.
    await expectError(await readOn('second', secret, id), 401, 'invalid_api_key');
    await expectError(await readOn('first', secret, id), 401, 'invalid_api_key');
    await expectError(await createOn('second', secret), 401, 'invalid_api_key');
    await expectError(await createOn('first', secret), 401, 'invalid_api_key');
    // The account's other keys stay cached and working.
    await warm(shop.testKey);
  });

  it('refuses every key of a suspended account on both gateways, and reactivation restores them', async () => {
    const shop = await platform.merchant();
    await warm(shop.testKey);
    await warm(shop.liveKey);
    const { id } = (await (await createOn('first', shop.testKey)).json()) as { id: string };
    expect((await readOn('second', shop.testKey, id)).status).toBe(200);
    await platform.operations.suspend(shop.accountId);
    for (const gateway of ['second', 'first'] as const) {
      await expectError(await readOn(gateway, shop.testKey, id), 403, 'suspended');
      await expectError(await createOn(gateway, shop.testKey), 403, 'suspended');
      await expectError(await createOn(gateway, shop.liveKey), 403, 'suspended');
    }
    await platform.operations.reactivate(shop.accountId);
    await warm(shop.testKey);
    await warm(shop.liveKey);
  });

  it('uses no cached key once its lease ran out while accounts does not answer (503), and caches again, missing no change, once it does', async () => {
    const shop = await platform.merchant();
    const { key, secret } = await platform.operations.createKey(shop.accountId, 'test');
    await warm(secret);
    await warm(shop.testKey);
    await platform.stack.accounts.pause();
    try {
      // Until its lease runs out (2 s from its last renewal, sent before the pause) a gateway still uses
      // what it cached: accounts answers no change before then. After it, nothing cached is used.
      await sleep(2_100);
      for (const gateway of ['first', 'second'] as const) {
        await expectError(await createOn(gateway, shop.testKey), 503, 'service_unavailable');
      }
    } finally {
      await platform.stack.accounts.resume();
    }
    await platform.operations.revokeKey(key.id);
    // The gateways' clients reconnect after their back-off; the revocation is in their next renewal.
    for (const gateway of ['first', 'second'] as const) {
      const answer = await eventually(
        () => createOn(gateway, secret),
        (response) => response.status !== 503,
        30_000,
      );
      await expectError(answer, 401, 'invalid_api_key');
    }
    await warm(shop.testKey);
    await platform.operations.suspend(shop.accountId);
    await expectError(await createOn('second', shop.testKey), 403, 'suspended');
    await expectError(await createOn('first', shop.testKey), 403, 'suspended');
  });
});
