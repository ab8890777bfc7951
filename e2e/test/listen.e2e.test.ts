// Risk covered: GET /v1/listen (the long poll behind `hosted-checkout listen`) missing, repeating or
// delaying a Test event, leaking another account's or the Live mode's events, serving a Live key, or
// answering bad parameters with anything but 400 with a code and field (issue 29, ADR 0046).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startGateway } from '@hc/gateway';
import { createLogger } from '@hc/logging';
import { bodyOf, createSession, expectError, VALID_BODY, type Json } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

let platform: Platform;
let merchant: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  platform = await startPlatform({ webhooks: true });
  [merchant, other] = await Promise.all([platform.merchant(), platform.merchant()]);
});
afterAll(async () => {
  await platform.stop();
});

interface ListenPage {
  object: 'list';
  data: Json[];
  has_more: boolean;
  next_cursor: string;
}

async function listen(query: string, key = merchant.testKey): Promise<ListenPage> {
  const response = await platform.request('GET', `/v1/listen?${query}`, { key });
  const body = await bodyOf(response);
  expect({ status: response.status, object: body['object'] }).toEqual({ status: 200, object: 'list' });
  return body as unknown as ListenPage;
}

async function startedPayment(key = merchant.testKey): Promise<string> {
  const id = String((await createSession(platform, key, { ...VALID_BODY, customer_email: 'l@example.com' }))['id']);
  expect((await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key, body: {} })).status).toBe(200);
  return id;
}

describe('GET /v1/listen', () => {
  it('answers an account without events at once with wait=0, and its cursor then catches the first event', async () => {
    const empty = await listen('wait=0');
    expect(empty).toEqual({ object: 'list', data: [], has_more: false, next_cursor: 'start' });
    const waiting = listen(`after=${empty.next_cursor}&wait=20`);
    const id = await startedPayment();
    const page = await waiting;
    expect(
      page.data.map((event) => [event['type'], (event['data'] as Json)['payment'] && ((event['data'] as Json)['payment'] as Json)['id']]),
    ).toEqual([['payment.started', id]]);
    expect(page.next_cursor).toBe(page.data[0]!['id']);
  });

  it('returns within about a second of a new event, oldest first, never repeating one across calls', async () => {
    const baseline = await listen('wait=0');
    const waiting = listen(`after=${baseline.next_cursor}&wait=20`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const id = await startedPayment();
    const startedAt = Date.now();
    const first = await waiting;
    const latencyMs = Date.now() - startedAt;
    expect(latencyMs).toBeLessThan(1500);
    expect(first.data.map((event) => event['type'])).toEqual(['payment.started']);

    expect(
      (await platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome: 'expired' } })).status,
    ).toBe(200);
    expect(
      (await platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome: 'paid' } })).status,
    ).toBe(200);
    const seen: string[] = [];
    let cursor = first.next_cursor;
    while (seen.length < 2) {
      const page = await listen(`after=${cursor}&wait=5`);
      expect(page.data.length).toBeGreaterThan(0);
      seen.push(...page.data.map((event) => String(event['type'])));
      cursor = page.next_cursor;
    }
    expect(seen).toEqual(['payment.expired', 'payment.paid']);
    expect(await listen(`after=${cursor}&wait=0`)).toEqual({ object: 'list', data: [], has_more: false, next_cursor: cursor });
  });

  it('without after starts from the newest event now; after=start replays from the oldest', async () => {
    const now = await listen('wait=0');
    expect(now.data).toEqual([]);
    const all = await listen('after=start&wait=0');
    expect(all.data.length).toBeGreaterThanOrEqual(4);
    expect(all.data.at(-1)!['id']).toBe(now.next_cursor);
  });

  it('shows one account only its own events, and refuses another account’s cursor', async () => {
    const mine = await listen('wait=0');
    await startedPayment(other.testKey);
    const page = await listen(`after=${mine.next_cursor}&wait=1`);
    expect(page.data).toEqual([]);
    const theirs = await listen('after=start&wait=0', other.testKey);
    expect(theirs.data).toHaveLength(1);
    await expectError(
      await platform.request('GET', `/v1/listen?after=${String(theirs.data[0]!['id'])}&wait=0`, { key: merchant.testKey }),
      400,
      'invalid_cursor',
      'after',
    );
  });

  it('refuses a Live key with 403 test_mode_only', async () => {
    await expectError(await platform.request('GET', '/v1/listen?wait=0', { key: merchant.liveKey }), 403, 'test_mode_only');
  });

  it.each([
    ['wait=26', 'invalid_request', 'wait'],
    ['wait=-1', 'invalid_request', 'wait'],
    ['wait=1.5', 'invalid_request', 'wait'],
    ['after=evt_nope&wait=0', 'invalid_cursor', 'after'],
    ['after=a&after=b', 'invalid_cursor', 'after'],
  ])('refuses %s with 400 %s (field %s)', async (query, code, field) => {
    await expectError(await platform.request('GET', `/v1/listen?${query}`, { key: merchant.testKey }), 400, code, field);
  });
});

describe('GET /v1/listen when the gateway stops', () => {
  it('answers a waiting poll at once (empty) instead of holding the stop until the wait ends', async () => {
    const gateway = await startGateway({ ...platform.gatewayConfig, GATEWAY_PORT: 0 }, createLogger('listen-stop', { level: 'silent' }));
    const cursor = (await listen('wait=0')).next_cursor;
    const waiting = fetch(`${gateway.url}/v1/listen?after=${cursor}&wait=20`, { headers: { authorization: `Bearer ${merchant.testKey}` } });
    // The poll is in the gateway and waiting before the stop begins.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stoppingAt = Date.now();
    await gateway.stop();
    expect(Date.now() - stoppingAt).toBeLessThan(3_000);
    const answer = await waiting;
    expect({ status: answer.status, data: ((await answer.json()) as ListenPage).data }).toEqual({ status: 200, data: [] });
  });
});
