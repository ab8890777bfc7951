// Risk covered (issue 49 item 3): the webhook endpoint checker, through the gateway and the SDK,
// grading a good endpoint below 6/6 (the SDK's verifyWebhook receiver, the example shop), or a bad one
// 6/6 (no verification, a crash on unknown types, too slow); its deliveries unmarked, or showing up
// as the account's events; a Live endpoint checked; a body the other actions refuse accepted here.
import { once } from 'node:events';
import type { Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClient, type HostedCheckout, type WebhookEndpointCheck } from '@hosted-checkout/sdk';
import { createShop } from 'example-shop';
import { freePort } from '@hc/test-kit';
import { bodyOf, expectError } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';
import { naiveEndpoint, sdkEndpoint, type TestEndpoint } from './webhook-check-receivers.ts';

let platform: Platform;
let workDir: string;
const endpoints: TestEndpoint[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  // Each answer may take 4 s here (1 s elsewhere in e2e): a good endpoint on a loaded machine must not read as slow.
  platform = await startPlatform({ webhooks: { WEBHOOKS_DELIVERY_TIMEOUT: '4s' } });
  workDir = await mkdtemp(join(tmpdir(), 'hc-webhook-check-'));
}, 120_000);

afterAll(async () => {
  for (const endpoint of endpoints) endpoint.close();
  for (const server of servers) server.close().closeAllConnections();
  await platform?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** A merchant of its own per case: the checker's rate limit is per account. */
async function merchantClient(): Promise<{ merchant: TestMerchant; client: HostedCheckout }> {
  const merchant = await platform.merchant();
  return { merchant, client: createClient({ apiKey: merchant.testKey, baseUrl: platform.url, maxNetworkRetries: 0 }) };
}

/** Registers the endpoint, hands it its secret, runs the check through the SDK. */
async function checkOf(endpoint: TestEndpoint): Promise<WebhookEndpointCheck> {
  endpoints.push(endpoint);
  const { client } = await merchantClient();
  const created = await client.webhookEndpoints.create({ url: endpoint.url });
  endpoint.secret = created.secret;
  return client.webhookEndpoints.check(created.id);
}

const failed = (report: WebhookEndpointCheck): string[] => report.checks.filter((c) => !c.passed).map((c) => c.id);

describe('grades', () => {
  it('a receiver on the SDK’s verifyWebhook 6/6, and marks every delivery as a check', async () => {
    const endpoint = await sdkEndpoint();
    const report = await checkOf(endpoint);
    expect(report).toMatchObject({ object: 'webhook_endpoint_check', score: '6/6', passed: 6, total: 6, livemode: false });
    expect(report.checks.map((c) => [c.id, c.status_code])).toEqual([
      ['valid_signature', 200],
      ['invalid_signature', 400],
      ['stale_timestamp', 400],
      ['replay', 200],
      ['out_of_order', 200],
      ['unknown_type', 200],
    ]);
    expect(endpoint.received).toHaveLength(7);
    for (const { headers, body } of endpoint.received) {
      expect(headers['webhook-check']).toBe('true');
      expect(body.id).toMatch(/^evt_check_/);
      expect(body.livemode).toBe(false);
    }
  });

  it('the example shop 6/6, and none of it becomes an event of the account', async () => {
    const { merchant, client } = await merchantClient();
    const port = await freePort();
    const created = await client.webhookEndpoints.create({ url: `http://127.0.0.1:${port}/webhooks` });
    const shop = createShop({
      client,
      webhookSecret: created.secret,
      shopUrl: `http://127.0.0.1:${port}`,
      dataFile: join(workDir, 'shop.json'),
    });
    const server = shop.app.listen(port, '127.0.0.1');
    servers.push(server);
    await once(server, 'listening');
    const report = await client.webhookEndpoints.check(created.id);
    expect({ score: report.score, failed: failed(report) }).toEqual({ score: '6/6', failed: [] });
    // The shop handled the accepted ones; the account has no event at all (GET /v1/events).
    expect(shop.events.map((e) => e.id).every((id) => id.startsWith('evt_check_'))).toBe(true);
    expect(shop.events.length).toBeGreaterThan(0);
    const events = await bodyOf(await platform.request('GET', '/v1/events', { key: merchant.testKey }));
    expect(events['data']).toEqual([]);
  });

  it('a naive endpoint (no verification) fails the wrong signature and the stale timestamp', async () => {
    // Over plain HTTP with a `{}` body (allowed, as for rotate_secret): the answer is checked against the OpenAPI document.
    const endpoint = await naiveEndpoint();
    endpoints.push(endpoint);
    const { merchant } = await merchantClient();
    const created = await bodyOf(
      await platform.request('POST', '/v1/webhook_endpoints', { key: merchant.testKey, body: { url: endpoint.url } }),
    );
    const response = await platform.request('POST', `/v1/webhook_endpoints/${created['id'] as string}/check`, {
      key: merchant.testKey,
      body: {},
    });
    expect(response.status).toBe(200);
    const report = (await response.json()) as WebhookEndpointCheck;
    expect({ score: report.score, failed: failed(report) }).toEqual({ score: '4/6', failed: ['invalid_signature', 'stale_timestamp'] });
    const forged = report.checks.find((c) => c.id === 'invalid_signature')!;
    expect(forged).toMatchObject({ status_code: 200, expected: '4xx', guide: 'docs/webhooks.md#check-invalid-signature' });
    expect(forged.explanation).toMatch(/signed with a secret that is not this endpoint’s.*answered HTTP 200.*fake a paid payment/);
  });

  it('an endpoint that crashes on an unknown event type fails that check alone', async () => {
    const report = await checkOf(await sdkEndpoint({ crashOnUnknownType: true }));
    expect({ score: report.score, failed: failed(report) }).toEqual({ score: '5/6', failed: ['unknown_type'] });
    expect(report.checks.find((c) => c.id === 'unknown_type')).toMatchObject({ status_code: 500, passed: false });
  });

  it('a slow endpoint fails every check it answers late, with the timeout named', async () => {
    // The platform here delivers with a 4 s timeout (beforeAll): this endpoint answers after 6 s.
    const report = await checkOf(await sdkEndpoint({ delayMs: 6_000 }));
    expect(report.timeout_ms).toBe(4_000);
    // Refusals come before the delay; everything it accepts comes too late.
    expect(failed(report)).toEqual(['valid_signature', 'replay', 'out_of_order', 'unknown_type']);
    for (const check of report.checks.filter((c) => !c.passed)) {
      expect(check).toMatchObject({ status_code: null, error: 'timeout' });
      expect(check.explanation).toMatch(/within 4 s, the delivery timeout.*Answer fast/);
    }
  }, 60_000);
});

describe('refuses', () => {
  it('a Live endpoint: 403 test_mode_only', async () => {
    const { merchant } = await merchantClient();
    const created = await bodyOf(
      await platform.request('POST', '/v1/webhook_endpoints', { key: merchant.liveKey, body: { url: 'https://127.0.0.1:9/webhooks' } }),
    );
    const id = created['id'] as string;
    await expectError(
      await platform.request('POST', `/v1/webhook_endpoints/${id}/check`, { key: merchant.liveKey }),
      403,
      'test_mode_only',
    );
    // With the Test key the Live endpoint does not exist.
    await expectError(await platform.request('POST', `/v1/webhook_endpoints/${id}/check`, { key: merchant.testKey }), 404, 'not_found');
  });

  it('a sixth check within a minute: 429 rate_limited with Retry-After, and nothing sent', async () => {
    const endpoint = await naiveEndpoint();
    endpoints.push(endpoint);
    const { merchant, client } = await merchantClient();
    const { id } = await client.webhookEndpoints.create({ url: endpoint.url });
    for (let i = 0; i < 5; i += 1) await client.webhookEndpoints.check(id);
    const sent = endpoint.received.length;
    const refused = await platform.request('POST', `/v1/webhook_endpoints/${id}/check`, { key: merchant.testKey });
    expect(refused.headers.get('retry-after')).toBe('60');
    await expectError(refused, 429, 'rate_limited');
    expect(endpoint.received.length).toBe(sent);
  }, 60_000);

  it('bodies as rotate_secret does: none or a JSON object; anything else as every POST', async () => {
    const { merchant } = await merchantClient();
    const path = '/v1/webhook_endpoints/we_nope/check';
    const key = merchant.testKey;
    await expectError(
      await platform.request('POST', path, { key, body: 'x', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
    await expectError(await platform.request('POST', path, { key, body: '[]' }), 400, 'invalid_json');
    await expectError(await platform.request('POST', path, { key, body: {} }), 404, 'not_found');
    await expectError(await platform.request('POST', path, { key }), 404, 'not_found');
  });
});
