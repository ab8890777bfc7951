// Risk covered: the checkout session object gains, loses or retypes a field, GET answers differently from create, or a session read past expires_at is not reported expired.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bodyOf, createSession, retrieve, SESSION_FIELDS, VALID_BODY, type Json } from './e2e-helpers.ts';
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

const STATUSES = ['open', 'pending', 'paid', 'held', 'failed', 'expired'];
const CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD'];
const FULL_BODY: Json = {
  ...VALID_BODY,
  amount: '49.5',
  currency: 'eur',
  reference: 'order-1001',
  customer_email: 'Buyer@Example.com',
  metadata: { cart: 'c_42', channel: 'web' },
  success_url: 'https://shop.example/thanks?p={PAYMENT_ID}',
  cancel_url: 'https://shop.example/cart',
};

const isString = (value: unknown): boolean => typeof value === 'string';
const isNullableString = (value: unknown): boolean => value === null || typeof value === 'string';
const isUnixSeconds = (value: unknown): boolean =>
  Number.isSafeInteger(value) && (value as number) > 1_500_000_000 && (value as number) < 10_000_000_000;
const isStringMap = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((entry) => typeof entry === 'string');

/** Every field of the object with the JSON type the spec gives it. */
function expectSessionShape(session: Json): void {
  expect(Object.keys(session).sort()).toEqual([...SESSION_FIELDS].sort());
  const checks: Record<string, (value: unknown) => boolean> = {
    id: (v) => isString(v) && /^pay_[0-9A-Za-z]+$/.test(v as string),
    object: (v) => v === 'checkout_session',
    url: (v) => isString(v) && /^https:\/\//.test(v as string),
    status: (v) => STATUSES.includes(v as string),
    livemode: (v) => typeof v === 'boolean',
    amount: (v) => isString(v) && /^\d+\.\d{2}$/.test(v as string),
    currency: (v) => CURRENCIES.includes(v as string),
    description: isString,
    reference: isNullableString,
    customer_email: isNullableString,
    created: isUnixSeconds,
    expires_at: isUnixSeconds,
    started_at: (v) => v === null || isUnixSeconds(v),
    metadata: (v) => v === null || isStringMap(v),
  };
  const wrong = Object.entries(checks)
    .filter(([field, check]) => !check(session[field]))
    .map(([field]) => `${field}: ${JSON.stringify(session[field])}`);
  expect(wrong).toEqual([]);
}

describe('the checkout session object', () => {
  it('has exactly the spec fields, each of its JSON type, when every optional field is set', async () => {
    const session = await createSession(platform, merchant.testKey, FULL_BODY);
    expectSessionShape(session);
    expect(session).toMatchObject({
      status: 'open',
      livemode: false,
      amount: '49.50',
      currency: 'EUR',
      description: VALID_BODY['description'],
      reference: 'order-1001',
      customer_email: 'buyer@example.com',
      metadata: { cart: 'c_42', channel: 'web' },
      started_at: null,
    });
  });

  it('has exactly the spec fields, with null for the optional ones, when only the required fields are sent', async () => {
    const session = await createSession(platform, merchant.testKey);
    expectSessionShape(session);
    expect(session).toMatchObject({ reference: null, customer_email: null, metadata: null, started_at: null });
  });

  it('does not return success_url or cancel_url', async () => {
    const session = await createSession(platform, merchant.testKey, FULL_BODY);
    expect(session).not.toHaveProperty('success_url');
    expect(session).not.toHaveProperty('cancel_url');
  });

  it('sends money as strings and timestamps as integers in the raw JSON text', async () => {
    const response = await platform.request('POST', '/v1/checkout_sessions', { key: merchant.liveKey, body: FULL_BODY });
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(text).toContain('"amount":"49.50"');
    expect(text).toMatch(/"created":\d+[,}]/);
    expect(text).toMatch(/"expires_at":\d+[,}]/);
    expect(text).toContain('"livemode":true');
  });

  it('is returned identically by GET, in Test and in Live', async () => {
    for (const key of [merchant.testKey, merchant.liveKey]) {
      const created = await createSession(platform, key, FULL_BODY);
      const read = await retrieve(platform, key, String(created['id']));
      expect(read.status).toBe(200);
      const again = await bodyOf(read);
      expectSessionShape(again);
      expect(again).toEqual(created);
    }
  });
});

describe('a session read past expires_at', () => {
  // Runs last in this file: it moves the checkout service's clock forward by a day.
  it('is still open one second before expires_at, then expired, and stays expired on later reads', async () => {
    const created = await createSession(platform, merchant.testKey, FULL_BODY);
    const id = String(created['id']);

    platform.clock.advance(24 * 60 * 60 * 1000 - 1000);
    const before = await bodyOf(await retrieve(platform, merchant.testKey, id));
    expect(before).toEqual(created);

    platform.clock.advance(2000);
    const expired = await retrieve(platform, merchant.testKey, id);
    expect(expired.status).toBe(200);
    const expiredSession = await bodyOf(expired);
    expectSessionShape(expiredSession);
    expect(expiredSession).toEqual({ ...created, status: 'expired' });

    platform.clock.advance(60 * 60 * 1000);
    expect(await bodyOf(await retrieve(platform, merchant.testKey, id))).toEqual({ ...created, status: 'expired' });
    platform.clock.advance(-2 * 60 * 60 * 1000);
    expect(await bodyOf(await retrieve(platform, merchant.testKey, id))).toEqual({ ...created, status: 'expired' });
  });

  it('expires Live sessions the same way, and a session created after the clock moved gets its own 24 hours', async () => {
    const live = await createSession(platform, merchant.liveKey);
    const fresh = await createSession(platform, merchant.testKey);
    expect(fresh['expires_at']).toBe(Number(fresh['created']) + 86_400);
    platform.clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect(await bodyOf(await retrieve(platform, merchant.liveKey, String(live['id'])))).toEqual({ ...live, status: 'expired' });
    expect(await bodyOf(await retrieve(platform, merchant.testKey, String(fresh['id'])))).toMatchObject({ status: 'expired' });
  });
});
