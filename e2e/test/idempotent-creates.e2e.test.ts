// Risk covered (issue 51, item 4): a /v1 create other than a checkout session ignoring its
// Idempotency-Key — a retried POST /v1/payment_links sending the payer two links, a retried POST
// /v1/webhook_endpoints registering the endpoint twice (every event delivered twice) — or a key
// answering another create's object, over real HTTP, gRPC and PostgreSQL, one and two gateway
// processes. And the webhook endpoint's secret: a replay answers it again, the gateway never keeps it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openTestPool } from '@hc/test-kit';
import { bodyOf, VALID_BODY, type Json } from './e2e-helpers.ts';
import { startGatewayProcess, type GatewayProcess } from './gateway-process.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

let platform: Platform;
let second: GatewayProcess;
let keyCounter = 0;
const uniqueKey = (): string => `create-${process.pid}-${Date.now()}-${++keyCounter}`;

beforeAll(async () => {
  platform = await startPlatform({ webhooks: true });
  second = await startGatewayProcess(platform.gatewayConfig);
});
afterAll(async () => {
  await second?.stop();
  await platform?.stop();
});

interface Answer {
  readonly status: number;
  readonly json: Json;
}

interface Create {
  readonly path: string;
  readonly body: Json;
  readonly otherBody: Json;
  /** How many objects of this create the key's account and mode holds. */
  readonly listPath: string;
}

const CREATES: readonly Create[] = [
  {
    path: '/v1/payment_links',
    body: { amount: '12.00', currency: 'EUR', description: 'Vase', lifetime: '24h', metadata: { a: '1', b: '2' } },
    otherBody: { amount: '12.00', currency: 'EUR', description: 'Vase', lifetime: '48h', metadata: { a: '1', b: '2' } },
    listPath: '/v1/payment_links?limit=100',
  },
  {
    path: '/v1/webhook_endpoints',
    body: { url: 'https://127.0.0.1:9/hooks', description: 'orders', enabled_events: ['payment.paid'] },
    otherBody: { url: 'https://127.0.0.1:9/hooks', description: 'orders', enabled_events: ['payment.failed'] },
    listPath: '/v1/webhook_endpoints',
  },
  {
    path: '/v1/checkout_sessions',
    body: { ...VALID_BODY },
    otherBody: { ...VALID_BODY, amount: '26.00' },
    listPath: '/v1/payments?limit=100',
  },
];

async function create(
  merchantKey: string,
  path: string,
  body: unknown,
  key: string | undefined,
  baseUrl: string = platform.url,
): Promise<Answer> {
  const headers: Record<string, string> = key === undefined ? {} : { 'idempotency-key': key };
  // Through the contract-checking helper on the first process; the same request by hand on the second.
  const response =
    baseUrl === platform.url
      ? await platform.request('POST', path, { key: merchantKey, body, headers })
      : await fetch(`${baseUrl}${path}`, {
          method: 'POST',
          headers: { ...headers, authorization: `Bearer ${merchantKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
  return { status: response.status, json: await bodyOf(response) };
}

async function count(merchantKey: string, listPath: string): Promise<number> {
  const response = await platform.request('GET', listPath, { key: merchantKey });
  return ((await bodyOf(response))['data'] as unknown[]).length;
}

describe.each(CREATES)('POST $path with an Idempotency-Key', ({ path, body, otherBody, listPath }) => {
  let merchant: TestMerchant;
  beforeAll(async () => {
    merchant = await platform.merchant();
  });

  it('same key and body: 201, then 200 with the same object (key order aside), and one object made', async () => {
    const key = uniqueKey();
    const first = await create(merchant.testKey, path, body, key);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await create(merchant.testKey, path, reordered, key);
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.json['id']).toBe(first.json['id']);
    expect(await count(merchant.testKey, listPath)).toBe(1);
  });

  it('same key, another body: 409 idempotency_conflict, nothing made', async () => {
    const key = uniqueKey();
    await create(merchant.testKey, path, body, key);
    const before = await count(merchant.testKey, listPath);
    const other = await create(merchant.testKey, path, otherBody, key);
    expect(other).toMatchObject({ status: 409, json: { error: { code: 'idempotency_conflict' } } });
    expect(await count(merchant.testKey, listPath)).toBe(before);
  });

  it('the same key in the other mode and on another account is another key', async () => {
    const key = uniqueKey();
    const someoneElse = await platform.merchant();
    const test = await create(merchant.testKey, path, body, key);
    const live = await create(merchant.liveKey, path, body, key);
    const theirs = await create(someoneElse.testKey, path, body, key);
    expect([test.status, live.status, theirs.status]).toEqual([201, 201, 201]);
    expect(live.json['livemode']).toBe(true);
    expect(new Set([test.json['id'], live.json['id'], theirs.json['id']]).size).toBe(3);
  });

  it('20 identical creates at once over two gateway processes make one object: one 201, the others its id', async () => {
    const fresh = await platform.merchant();
    const key = uniqueKey();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(fresh.testKey, path, body, key, i % 2 === 0 ? platform.url : second.url)),
    );
    const made = answers.filter((a) => a.status === 200 || a.status === 201);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(new Set(made.map((a) => a.json['id'])).size).toBe(1);
    // The spec's rare answer to a duplicate while the first still runs; nothing else.
    for (const other of answers.filter((a) => !made.includes(a))) {
      expect(other).toMatchObject({ status: 409, json: { error: { code: 'idempotency_conflict' } } });
    }
    expect(await count(fresh.testKey, listPath)).toBe(1);
  });

  it('an invalid key is 400 invalid_idempotency_key and makes nothing; no key makes one per request', async () => {
    const fresh = await platform.merchant();
    for (const key of ['   ', 'k'.repeat(121), 'tab\there']) {
      expect(await create(fresh.testKey, path, body, key)).toMatchObject({
        status: 400,
        json: { error: { code: 'invalid_idempotency_key' } },
      });
    }
    expect(await count(fresh.testKey, listPath)).toBe(0);
    const [a, b] = [await create(fresh.testKey, path, body, undefined), await create(fresh.testKey, path, body, undefined)];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.json['id']).not.toBe(b.json['id']);
  });
});

describe('one key across creates', () => {
  it('a key used by one create is idempotency_conflict on every other create, and makes nothing there', async () => {
    const merchant = await platform.merchant();
    const key = uniqueKey();
    // First the endpoint: a link is a payment too, and would be counted by the sessions' list.
    const [first, others] = [CREATES[1], [CREATES[0]!, CREATES[2]!]];
    expect((await create(merchant.testKey, first!.path, first!.body, key)).status).toBe(201);
    for (const other of others) {
      expect(await create(merchant.testKey, other.path, other.body, key)).toMatchObject({
        status: 409,
        json: { error: { code: 'idempotency_conflict' } },
      });
      expect(await count(merchant.testKey, other.listPath)).toBe(0);
    }
  });
});

describe("a webhook endpoint's secret on a replay", () => {
  it('is answered again (the current one after a rotation), and the gateway never stores it', async () => {
    const merchant = await platform.merchant();
    const key = uniqueKey();
    const { body } = CREATES[1]!;
    const first = await create(merchant.testKey, '/v1/webhook_endpoints', body, key);
    const again = await create(merchant.testKey, '/v1/webhook_endpoints', body, key);
    expect(first.json['secret']).toMatch(/^whsec_/);
    expect(again.json['secret']).toBe(first.json['secret']);
    const id = String(first.json['id']);
    const rotated = await bodyOf(await platform.request('POST', `/v1/webhook_endpoints/${id}/rotate_secret`, { key: merchant.testKey }));
    const afterRotation = await create(merchant.testKey, '/v1/webhook_endpoints', body, key);
    expect([afterRotation.status, afterRotation.json['id'], afterRotation.json['secret']]).toEqual([200, id, rotated['secret']]);

    const pool = openTestPool(platform.gatewayDatabaseUrl, 1);
    try {
      const { rows } = await pool.query<Record<string, unknown>>('SELECT * FROM idempotency_records WHERE account_id = $1 AND key = $2', [
        merchant.accountId,
        key,
      ]);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain('whsec_');
      expect(rows[0]!['session_id']).toBe(id);
    } finally {
      await pool.end();
    }
  });
});
