// Risk covered: a merchant catching up after downtime through GET /v1/events misses, repeats or
// reorders events while paging or filtering, reads an event that differs from the delivered body (its
// signature would not verify), sees another account's or mode's events, or reads an erased buyer's details.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { bodyOf, createSession, eventually, expectError, VALID_BODY, type Json } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';
import { unixSeconds } from '@hc/conversions';

interface Delivery {
  headers: Record<string, string>;
  raw: string;
  id: string;
}

let platform: Platform;
let merchant: TestMerchant;
let other: TestMerchant;
let server: Server;
let secret: string;
const delivered: Delivery[] = [];
const paymentIds: string[] = [];

async function operator(...args: string[]): Promise<Json> {
  const { code, stdout, stderr } = await platform.operator(...args);
  if (code !== 0) throw new Error(`operator ${args.join(' ')} exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as Json;
}

async function listEvents(key: string, query = ''): Promise<Json> {
  const response = await platform.request('GET', `/v1/events${query}`, { key });
  const body = await bodyOf(response);
  expect({ status: response.status, body }).toEqual({ status: 200, body: expect.objectContaining({ data: expect.any(Array) }) });
  return body;
}

const ids = (page: Json): string[] => (page['data'] as Json[]).map((event) => String(event['id']));

beforeAll(async () => {
  platform = await startPlatform({ webhooks: true });
  [merchant, other] = await Promise.all([platform.merchant(), platform.merchant()]);
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      delivered.push({ headers: req.headers as Record<string, string>, raw, id: String((JSON.parse(raw) as Json)['id']) });
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  secret = String((await operator('webhooks', 'endpoints', 'add', merchant.accountId, '--mode', 'test', '--url', url))['secret']);
  // Two payments: each started then paid, so four payment events.
  for (const email of ['first@example.com', 'second@example.com']) {
    const id = String((await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: email }))['id']);
    await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.testKey, body: {} });
    await platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome: 'paid' } });
    paymentIds.push(id);
  }
  await eventually(
    () => listEvents(merchant.testKey),
    (page) => ids(page).length === 4,
  );
  await eventually(
    async () => delivered.length,
    (count) => count >= 4,
  );
});
afterAll(async () => {
  server.close();
  await platform.stop();
});

describe('GET /v1/events', () => {
  it('lists every event of the account and mode, newest first, each exactly as delivered', async () => {
    const page = await listEvents(merchant.testKey);
    expect(page['has_more']).toBe(false);
    const events = page['data'] as Json[];
    expect(events.map((event) => event['type']).sort()).toEqual(['payment.paid', 'payment.paid', 'payment.started', 'payment.started']);
    const created = events.map((event) => Number(event['created']));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    for (const event of events) {
      const delivery = delivered.find((d) => d.id === event['id']);
      expect(JSON.parse(delivery!.raw)).toEqual(event);
    }
  });

  it('pages with limit and starting_after without gaps or repeats', async () => {
    const all = ids(await listEvents(merchant.testKey));
    const walked: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await listEvents(merchant.testKey, `?limit=1${cursor ? `&starting_after=${cursor}` : ''}`);
      walked.push(...ids(page));
      if (page['has_more'] !== true) break;
      cursor = String(page['next_cursor']);
    }
    expect(walked).toEqual(all);
  });

  it('filters by type and by creation time', async () => {
    const paid = (await listEvents(merchant.testKey, '?type=payment.paid'))['data'] as Json[];
    expect(paid.map((event) => event['type'])).toEqual(['payment.paid', 'payment.paid']);
    const future = unixSeconds(new Date()) + 3600;
    expect(ids(await listEvents(merchant.testKey, `?created[gte]=${future}`))).toEqual([]);
    expect(ids(await listEvents(merchant.testKey, `?created[lt]=${future}`))).toHaveLength(4);
  });

  it('refuses a bad limit, type, time or cursor with the list rules', async () => {
    await expectError(await platform.request('GET', '/v1/events?limit=0', { key: merchant.testKey }), 400, 'invalid_limit', 'limit');
    await expectError(
      await platform.request('GET', '/v1/events?type=payment.nope', { key: merchant.testKey }),
      400,
      'invalid_event_types',
      'type',
    );
    await expectError(
      await platform.request('GET', '/v1/events?created[gte]=soon', { key: merchant.testKey }),
      400,
      'invalid_request',
      'created[gte]',
    );
    const theirs = ids(await listEvents(merchant.testKey))[0];
    await expectError(
      await platform.request('GET', `/v1/events?starting_after=${theirs}`, { key: other.testKey }),
      400,
      'invalid_cursor',
      'starting_after',
    );
  });

  it("never shows another account's or the other mode's events", async () => {
    expect(ids(await listEvents(other.testKey))).toEqual([]);
    expect(ids(await listEvents(merchant.liveKey))).toEqual([]);
    const id = ids(await listEvents(merchant.testKey))[0];
    await expectError(await platform.request('GET', `/v1/events/${id}`, { key: other.testKey }), 404, 'not_found');
    await expectError(await platform.request('GET', `/v1/events/${id}`, { key: merchant.liveKey }), 404, 'not_found');
  });
});

describe('GET /v1/events/:id', () => {
  it('answers the delivered body byte for byte, so its signature verifies on it', async () => {
    const delivery = delivered[0]!;
    const response = await platform.request('GET', `/v1/events/${delivery.id}`, { key: merchant.testKey });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toBe(delivery.raw);
    expect(() => new Webhook(secret).verify(text, delivery.headers)).not.toThrow();
  });

  it("scrubs an erased buyer's details as in the delivery log", async () => {
    const email = 'first@example.com';
    const customer = (
      (await bodyOf(await platform.request('GET', `/v1/customers?email=${email}`, { key: merchant.testKey })))['data'] as Json[]
    )[0];
    await operator('customers', 'erase', merchant.accountId, String(customer!['id']), '--mode', 'test');
    const page = await eventually(
      () => listEvents(merchant.testKey),
      (listed) => !JSON.stringify(listed).includes(email),
    );
    expect(JSON.stringify(page)).not.toContain(email);
    const ofErased = (page['data'] as Json[]).filter(
      (event) => (event['data'] as Json)['payment'] && ((event['data'] as Json)['payment'] as Json)['id'] === paymentIds[0],
    );
    expect(ofErased.map((event) => ((event['data'] as Json)['payment'] as Json)['customerEmail'])).toEqual([null, null]);
  });
});
