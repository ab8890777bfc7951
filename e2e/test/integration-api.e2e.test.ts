// Risk covered: /v1/webhook_endpoints and /v1/payment_links with the secret key (issue 29, ADR 0045)
// showing a signing secret more than once, a secret that does not sign the deliveries, one mode's
// endpoints or links in the other mode, a bad field answered without its code and field, or a link
// that cannot be canceled, listed and paid as the dashboard's can.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { verifyWebhook } from '@hosted-checkout/sdk';
import { bodyOf, eventually, expectError, startWebhookReceiver, type Json, type WebhookReceiver } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

let platform: Platform;
let merchant: TestMerchant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  platform = await startPlatform({ webhooks: true });
  merchant = await platform.merchant();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  receiver?.close();
  await platform?.stop();
});

async function call(method: string, path: string, body?: unknown, key = merchant.testKey): Promise<{ status: number; body: Json }> {
  const response = await platform.request(method, path, { key, body });
  return { status: response.status, body: await bodyOf(response) };
}

describe('/v1/webhook_endpoints', () => {
  it('creates an endpoint whose once-shown secret signs its deliveries; the rest never shows a secret', async () => {
    const created = await call('POST', '/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['payment.started'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'webhook_endpoint', url: receiver.url, status: 'enabled', livemode: false });
    const { id, secret } = created.body as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);

    const session = await call('POST', '/v1/checkout_sessions', {
      amount: '4.00',
      currency: 'USD',
      description: 'Cup',
      customer_email: 'a@b.example',
    });
    expect((await call('POST', `/v1/checkout_sessions/${String(session.body['id'])}/start`, {})).status).toBe(200);
    const [delivery] = await eventually(
      async () => receiver.delivered,
      (list) => list.length > 0,
      10_000,
    );
    expect(verifyWebhook(delivery!.raw, delivery!.headers, secret).type).toBe('payment.started');

    const read = await call('GET', `/v1/webhook_endpoints/${id}`);
    expect(read.body).not.toHaveProperty('secret');
    const list = await call('GET', '/v1/webhook_endpoints');
    expect(list.body).toEqual({ data: [read.body], has_more: false, next_cursor: null });
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
  });

  it('updates, disables and enables, rotates and deletes; each mode sees only its own', async () => {
    const { body } = await call('POST', '/v1/webhook_endpoints', { url: 'https://127.0.0.1:9/a', description: 'A' });
    const id = String(body['id']);
    const updated = await call('POST', `/v1/webhook_endpoints/${id}`, {
      url: 'https://127.0.0.1:9/b',
      description: null,
      enabled_events: ['payment.paid'],
    });
    expect(updated.body).toMatchObject({ url: 'https://127.0.0.1:9/b', description: null, enabled_events: ['payment.paid'] });
    expect((await call('POST', `/v1/webhook_endpoints/${id}`, { status: 'disabled' })).body).toMatchObject({
      status: 'disabled',
      disabled_reason: 'operator',
    });
    expect((await call('POST', `/v1/webhook_endpoints/${id}`, { status: 'enabled' })).body).toMatchObject({
      status: 'enabled',
      disabled_reason: null,
    });
    const rotated = await call('POST', `/v1/webhook_endpoints/${id}/rotate_secret`);
    expect(rotated.body).toMatchObject({ id, secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expect.any(Number) });

    const live = await call('GET', '/v1/webhook_endpoints', undefined, merchant.liveKey);
    expect((live.body['data'] as Json[]).map((e) => e['id'])).not.toContain(id);
    await expectError(await platform.request('GET', `/v1/webhook_endpoints/${id}`, { key: merchant.liveKey }), 404, 'not_found');

    expect((await call('DELETE', `/v1/webhook_endpoints/${id}`)).body).toEqual({ id, object: 'webhook_endpoint', deleted: true });
    await expectError(await platform.request('GET', `/v1/webhook_endpoints/${id}`, { key: merchant.testKey }), 404, 'not_found');
  });

  it.each([
    [{}, 'invalid_url', 'url'],
    [{ url: 'ftp://hooks.example' }, 'invalid_url', 'url'],
    [{ url: 'https://127.0.0.1:9/hooks', enabled_events: ['payment.nope'] }, 'invalid_event_types', 'enabled_events'],
    [{ url: 'https://127.0.0.1:9/hooks', enabled_events: 'payment.paid' }, 'invalid_event_types', 'enabled_events'],
    [{ url: 'https://127.0.0.1:9/hooks', description: 5 }, 'invalid_description', 'description'],
  ])('refuses %j with 400 %s (field %s)', async (body, code, field) => {
    await expectError(await platform.request('POST', '/v1/webhook_endpoints', { key: merchant.testKey, body }), 400, code, field);
  });
});

describe('/v1/payment_links', () => {
  it('creates, reads, lists and cancels a link as the dashboard does; it is also a payment', async () => {
    const created = await call('POST', '/v1/payment_links', {
      amount: '12.5',
      currency: 'eur',
      description: 'Invoice 7',
      customer_name: 'Kim',
      memo: 'Thanks!\nSee you',
      lifetime: '2h',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'payment_link',
      amount: '12.50',
      currency: 'EUR',
      status: 'open',
      customer_name: 'Kim',
      memo: 'Thanks!\nSee you',
    });
    const id = String(created.body['id']);
    expect(Number(created.body['expires_at']) - Number(created.body['created'])).toBe(7200);
    expect((await call('GET', `/v1/payment_links/${id}`)).body).toEqual(created.body);
    expect(((await call('GET', '/v1/payment_links')).body['data'] as Json[]).map((l) => l['id'])).toEqual([id]);
    expect(((await call('GET', '/v1/payments?source=payment_link')).body['data'] as Json[]).map((p) => p['id'])).toEqual([id]);
    const canceled = await call('POST', `/v1/payment_links/${id}/cancel`);
    expect(canceled.body).toMatchObject({ status: 'expired', canceled_at: expect.any(Number) });
    expect((await call('GET', '/v1/payment_links', undefined, merchant.liveKey)).body['data']).toEqual([]);
  });

  it('answers a payment that is not a link with 404, and bad fields with their code and field', async () => {
    const session = await call('POST', '/v1/checkout_sessions', { amount: '4.00', currency: 'USD', description: 'Cup' });
    await expectError(
      await platform.request('GET', `/v1/payment_links/${String(session.body['id'])}`, { key: merchant.testKey }),
      404,
      'not_found',
    );
    const bad = (body: Json) =>
      platform.request('POST', '/v1/payment_links', {
        key: merchant.testKey,
        body: { amount: '1', currency: 'EUR', description: 'x', ...body },
      });
    await expectError(await bad({ lifetime: '1y' }), 400, 'invalid_lifetime', 'lifetime');
    await expectError(await bad({ memo: 7 }), 400, 'invalid_memo', 'memo');
    await expectError(await bad({ amount: '-1' }), 400, 'invalid_amount', 'amount');
  });
});

// Issue 51: docs/api-errors.md and the OpenAPI document disagreed on a POST that takes no fields. One
// rule now: such an action needs no body; a body, when sent, is held to the body rules of every POST.
describe('actions that take no fields (cancel, rotate_secret)', () => {
  const raw = (path: string, headers: Record<string, string>, body?: string) =>
    platform.request('POST', path, { key: merchant.testKey, headers, ...(body === undefined ? {} : { body }) });

  it('answer without a body or with a JSON object; any other body is refused as on every POST', async () => {
    const endpoint = String((await call('POST', '/v1/webhook_endpoints', { url: 'https://127.0.0.1:9/no-fields' })).body['id']);
    const links = await Promise.all(
      [1, 2].map(async () => (await call('POST', '/v1/payment_links', { amount: '3', currency: 'EUR', description: 'x' })).body),
    );
    for (const path of [`/v1/webhook_endpoints/${endpoint}/rotate_secret`, `/v1/payment_links/${String(links[0]!['id'])}/cancel`]) {
      await expectError(await raw(path, { 'content-type': 'text/plain' }, 'please'), 415, 'unsupported_media_type');
      await expectError(await raw(path, { 'content-type': 'application/json' }, '[]'), 400, 'invalid_json');
      await expectError(await raw(path, { 'content-type': 'application/json' }, '{"a":1,"a":2}'), 400, 'invalid_json');
      expect((await raw(path, {})).status).toBe(200);
      expect((await raw(path, { 'content-type': 'application/json' }, '{}')).status).toBe(200);
    }
    expect((await raw(`/v1/payment_links/${String(links[1]!['id'])}/cancel`, { 'content-type': 'application/json' }, '')).status).toBe(200);
  });

  it('the webhook endpoint list is oldest first, as its OpenAPI description says', async () => {
    const made: string[] = [];
    for (const n of [1, 2, 3])
      made.push(String((await call('POST', '/v1/webhook_endpoints', { url: `https://127.0.0.1:9/order-${n}` })).body['id']));
    const listed = ((await call('GET', '/v1/webhook_endpoints')).body['data'] as Json[]).map((e) => String(e['id']));
    expect(listed.filter((id) => made.includes(id))).toEqual(made);
    const document = (await (await fetch(`${platform.url}/v1/openapi.json`)).json()) as {
      components: { schemas: Record<string, { description: string }> };
    };
    expect(document.components.schemas['WebhookEndpointList']!.description).toMatch(/oldest first/);
  });
});
