// Risk covered: the payment object gains, loses or retypes a field or disagrees with its session; GET /v1/payments skips, repeats or misorders payments while paging (also within one millisecond), falls back silently on a bad limit or cursor, or mixes accounts and modes; a list read past expiry shows unpaid payments as still open.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bodyOf, createSession, expectError, retrieve, SESSION_FIELDS, VALID_BODY, PAYMENT_FIELDS, type Json } from './e2e-helpers.ts';
import { startPlatform, WALLET, type Platform, type TestMerchant } from './platform-harness.ts';
import { unixSeconds } from '@hc/conversions';

let platform: Platform;
let merchant: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  platform = await startPlatform();
  [merchant, other] = await Promise.all([platform.merchant(), platform.merchant()]);
});
afterAll(async () => {
  await platform.stop();
});

const WITH_EMAIL: Json = { ...VALID_BODY, customer_email: 'buyer@example.com' };
const SETTLEMENT_FIELDS = ['coin', 'value_coin', 'merchant_received', 'txid_in', 'txid_out', 'payout_wallet'];
const NO_SETTLEMENT = Object.fromEntries(SETTLEMENT_FIELDS.map((field) => [field, null]));
const STATUSES = ['open', 'pending', 'paid', 'held', 'failed', 'expired'];
const DAY_MS = 24 * 60 * 60 * 1000;
const UNKNOWN_ID = 'pay_01ARZ3NDEKTSV4RRFFQ69G5FAV';

const idOf = (object: Json): string => String(object['id']);
const isNullableString = (value: unknown): boolean => value === null || typeof value === 'string';
const isUnixSeconds = (value: unknown): boolean =>
  Number.isSafeInteger(value) && (value as number) > 1_500_000_000 && (value as number) < 10_000_000_000;
const isCoinAmount = (value: unknown): boolean => value === null || (typeof value === 'string' && /^\d+\.\d+$/.test(value));

function getPayment(key: string, id: string): Promise<Response> {
  return platform.request('GET', `/v1/payments/${id}`, { key });
}

async function payment(key: string, id: string): Promise<Json> {
  const response = await getPayment(key, id);
  const body = await bodyOf(response);
  expect({ status: response.status, body }).toEqual({ status: 200, body: expect.objectContaining({ object: 'payment' }) });
  return body;
}

async function start(key: string, id: string): Promise<void> {
  const response = await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key, body: {} });
  expect(response.status).toBe(200);
}

async function simulate(key: string, id: string, outcome: string): Promise<void> {
  const response = await platform.request('POST', `/v1/payments/${id}/simulate`, { key, body: { outcome } });
  expect(response.status).toBe(200);
}

function list(key: string, query = ''): Promise<Response> {
  return platform.request('GET', `/v1/payments${query}`, { key });
}

interface Page {
  data: Json[];
  has_more: boolean;
  next_cursor: string | null;
}

/** A list page that must be 200, with exactly the list page shape. */
async function page(key: string, query = ''): Promise<Page> {
  const response = await list(key, query);
  const body = await bodyOf(response);
  expect(response.status).toBe(200);
  expect(Object.keys(body).sort()).toEqual(['data', 'has_more', 'next_cursor']);
  expect(Array.isArray(body['data'])).toBe(true);
  expect(typeof body['has_more']).toBe('boolean');
  expect(isNullableString(body['next_cursor'])).toBe(true);
  return body as unknown as Page;
}

/** Every page from the start with `limit`, following next_cursor until it is null. */
async function walk(key: string, limit: number): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? `?limit=${limit}` : `?limit=${limit}&starting_after=${cursor}`;
    const current = await page(key, query);
    pages.push(current);
    cursor = current.next_cursor;
    expect(pages.length).toBeLessThanOrEqual(200);
  } while (cursor !== null);
  return pages;
}

/** Each page's has_more and next_cursor agree with its content: more follows exactly when a cursor is given. */
function expectConsistentPages(pages: Page[], limit: number): void {
  pages.forEach((current, index) => {
    const last = index === pages.length - 1;
    expect(current.has_more).toBe(!last);
    expect(current.next_cursor).toBe(last ? null : idOf(current.data[current.data.length - 1] ?? {}));
    if (!last) expect(current.data).toHaveLength(limit);
    else expect(current.data.length).toBeLessThanOrEqual(limit);
  });
}

/** Creates `count` Test sessions one after the other; returns their ids in creation order. */
async function createMany(key: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(idOf(await createSession(platform, key, { ...VALID_BODY, reference: `order-${i}` })));
  return ids;
}

/** Every field of the payment object with the JSON type the spec gives it. */
function expectPaymentShape(object: Json): void {
  expect(Object.keys(object).sort()).toEqual([...PAYMENT_FIELDS].sort());
  const settlement = object['settlement'] as Json;
  expect(typeof settlement === 'object' && settlement !== null && !Array.isArray(settlement)).toBe(true);
  expect(Object.keys(settlement).sort()).toEqual([...SETTLEMENT_FIELDS].sort());
  const checks: Record<string, (value: unknown) => boolean> = {
    id: (v) => typeof v === 'string' && /^pay_[0-9A-Za-z]+$/.test(v),
    object: (v) => v === 'payment',
    url: (v) => typeof v === 'string' && /^https:\/\//.test(v),
    status: (v) => STATUSES.includes(v as string),
    livemode: (v) => typeof v === 'boolean',
    amount: (v) => typeof v === 'string' && /^\d+\.\d{2}$/.test(v),
    currency: (v) => ['USD', 'EUR', 'GBP', 'CAD', 'AUD'].includes(v as string),
    description: (v) => typeof v === 'string',
    reference: isNullableString,
    customer_email: isNullableString,
    created: isUnixSeconds,
    expires_at: isUnixSeconds,
    started_at: (v) => v === null || isUnixSeconds(v),
    metadata: (v) => v === null || (typeof v === 'object' && !Array.isArray(v)),
    paid_at: (v) => v === null || isUnixSeconds(v),
    provider: isNullableString,
    hold_reason: isNullableString,
    hold_acceptable: (v) => typeof v === 'boolean',
    canceled_at: (v) => v === null || isUnixSeconds(v),
    settlement: () => true,
    'settlement.coin': () => isNullableString(settlement['coin']),
    'settlement.value_coin': () => isCoinAmount(settlement['value_coin']),
    'settlement.merchant_received': () => isCoinAmount(settlement['merchant_received']),
    'settlement.txid_in': () => isNullableString(settlement['txid_in']),
    'settlement.txid_out': () => isNullableString(settlement['txid_out']),
    'settlement.payout_wallet': () => isNullableString(settlement['payout_wallet']),
  };
  const wrong = Object.entries(checks)
    .filter(([field, check]) => !check(object[field]))
    .map(([field]) => `${field}: ${JSON.stringify(field.startsWith('settlement.') ? settlement[field.slice(11)] : object[field])}`);
  expect(wrong).toEqual([]);
}

/** The session fields of a payment object are the session's own, with object "payment". */
async function expectSameAsSession(key: string, object: Json): Promise<void> {
  const response = await retrieve(platform, key, idOf(object));
  expect(response.status).toBe(200);
  const session = await bodyOf(response);
  expect(Object.fromEntries(SESSION_FIELDS.map((field) => [field, object[field]]))).toEqual({ ...session, object: 'payment' });
}

describe('GET /v1/payments/:id: the payment object', () => {
  it('has exactly the spec fields, each of its JSON type, before start with every settlement field null', async () => {
    const session = await createSession(platform, merchant.testKey, {
      ...WITH_EMAIL,
      reference: 'order-7',
      metadata: { cart: 'c_7' },
      success_url: 'https://shop.example/thanks',
    });
    const object = await payment(merchant.testKey, idOf(session));
    expectPaymentShape(object);
    expect(object).toMatchObject({
      object: 'payment',
      status: 'open',
      started_at: null,
      paid_at: null,
      provider: null,
      hold_reason: null,
      hold_acceptable: false,
      canceled_at: null,
      settlement: NO_SETTLEMENT,
    });
    await expectSameAsSession(merchant.testKey, object);
  });

  it('after start: started_at set and the payout wallet fixed, nothing moved yet', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    await start(merchant.testKey, idOf(session));
    const object = await payment(merchant.testKey, idOf(session));
    expectPaymentShape(object);
    expect(object).toMatchObject({
      status: 'open',
      started_at: unixSeconds(platform.clock.now()),
      paid_at: null,
      settlement: { ...NO_SETTLEMENT, payout_wallet: WALLET },
    });
    await expectSameAsSession(merchant.testKey, object);
  });

  it.each(['paid', 'underpaid', 'failed'])('keeps the shape after simulate %s', async (outcome) => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    await start(merchant.testKey, idOf(session));
    await simulate(merchant.testKey, idOf(session), outcome);
    const object = await payment(merchant.testKey, idOf(session));
    expectPaymentShape(object);
    await expectSameAsSession(merchant.testKey, object);
  });

  it('reads a Live payment with the live key, livemode true', async () => {
    const session = await createSession(platform, merchant.liveKey, WITH_EMAIL);
    const object = await payment(merchant.liveKey, idOf(session));
    expectPaymentShape(object);
    expect(object).toMatchObject({ livemode: true, settlement: NO_SETTLEMENT });
  });

  it('answers with Cache-Control: no-store, as the list does', async () => {
    const session = await createSession(platform, merchant.testKey);
    for (const response of [await getPayment(merchant.testKey, idOf(session)), await list(merchant.testKey)]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('answers 404 not_found for another account’s payment, the other mode’s payment, and an unknown id', async () => {
    const [test, live] = await Promise.all([
      createSession(platform, merchant.testKey, WITH_EMAIL),
      createSession(platform, merchant.liveKey, WITH_EMAIL),
    ]);
    await expectError(await getPayment(other.testKey, idOf(test)), 404, 'not_found');
    await expectError(await getPayment(other.liveKey, idOf(live)), 404, 'not_found');
    await expectError(await getPayment(merchant.liveKey, idOf(test)), 404, 'not_found');
    await expectError(await getPayment(merchant.testKey, idOf(live)), 404, 'not_found');
    await expectError(await getPayment(merchant.testKey, UNKNOWN_ID), 404, 'not_found');
    await expectError(await getPayment(merchant.testKey, 'garbage'), 404, 'not_found');
  });
});

describe('GET /v1/payments: order and paging', () => {
  let shop: TestMerchant;
  /** 25 payments created while the clock stands still (same second, same millisecond), in creation order. */
  let sameInstant: string[];

  beforeAll(async () => {
    shop = await platform.merchant();
    sameInstant = await createMany(shop.testKey, 25);
  });

  it('answers an empty page for an account without payments', async () => {
    const empty = await platform.merchant();
    expect(await page(empty.testKey)).toEqual({ data: [], has_more: false, next_cursor: null });
    expect(await page(empty.liveKey)).toEqual({ data: [], has_more: false, next_cursor: null });
  });

  it('lists newest first by creation time', async () => {
    const shop2 = await platform.merchant();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(idOf(await createSession(platform, shop2.testKey)));
      platform.clock.advance(1_500);
    }
    const listed = await page(shop2.testKey);
    expect(listed.data.map(idOf)).toEqual([...ids].reverse());
    expect(listed.data.map((item) => item['created'])).toEqual([...listed.data.map((item) => item['created'])].sort().reverse());
  });

  it('lists payments created in the same millisecond newest first too (reverse creation order)', async () => {
    const all = await page(shop.testKey, '?limit=100');
    expect(new Set(all.data.map((item) => item['created'])).size).toBe(1);
    expect(all.data.map(idOf)).toEqual([...sameInstant].reverse());
  });

  it('lists full payment objects, each equal to GET /v1/payments/:id', async () => {
    const first = await page(shop.testKey, '?limit=3');
    for (const item of first.data) {
      expectPaymentShape(item);
      expect(item).toEqual(await payment(shop.testKey, idOf(item)));
    }
  });

  it.each([1, 2, 7, 10, 12, 24, 25])(
    'walks 25 same-millisecond payments with limit %i: each exactly once, no gap, has_more and next_cursor right',
    async (limit) => {
      const pages = await walk(shop.testKey, limit);
      expect(pages).toHaveLength(Math.ceil(25 / limit));
      expectConsistentPages(pages, limit);
      const walked = pages.flatMap((current) => current.data.map(idOf));
      expect(walked).toEqual([...sameInstant].reverse());
    },
  );

  it('answers 20 payments by default, with has_more and a cursor that continues with the rest', async () => {
    const first = await page(shop.testKey);
    expect(first.data).toHaveLength(20);
    expect(first).toMatchObject({ has_more: true, next_cursor: idOf(first.data[19] ?? {}) });
    const rest = await page(shop.testKey, `?starting_after=${first.next_cursor ?? ''}`);
    expect(rest).toMatchObject({ has_more: false, next_cursor: null });
    expect([...first.data, ...rest.data].map(idOf)).toEqual([...sameInstant].reverse());
  });

  it('accepts limit 1 and limit 100', async () => {
    const one = await page(shop.testKey, '?limit=1');
    expect(one.data.map(idOf)).toEqual([sameInstant[24]]);
    expect(one).toMatchObject({ has_more: true, next_cursor: sameInstant[24] });
    const hundred = await page(shop.testKey, '?limit=100');
    expect(hundred.data).toHaveLength(25);
    expect(hundred).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('answers an empty last page after the oldest payment', async () => {
    expect(await page(shop.testKey, `?starting_after=${sameInstant[0] ?? ''}`)).toEqual({ data: [], has_more: false, next_cursor: null });
  });

  it('keeps walking the same payments when newer ones are created between pages', async () => {
    const first = await page(shop.testKey, '?limit=10');
    const newer = await createSession(platform, shop.testKey);
    const second = await page(shop.testKey, `?limit=10&starting_after=${first.next_cursor ?? ''}`);
    const third = await page(shop.testKey, `?limit=10&starting_after=${second.next_cursor ?? ''}`);
    expect([...first.data, ...second.data, ...third.data].map(idOf)).toEqual([...sameInstant].reverse());
    expect(third).toMatchObject({ has_more: false, next_cursor: null });
    expect((await page(shop.testKey, '?limit=1')).data.map(idOf)).toEqual([idOf(newer)]);
  });
});

describe('GET /v1/payments: 400 invalid_limit (field limit) for a limit outside 1 to 100, no silent fallback', () => {
  it.each([
    ['0', '?limit=0'],
    ['101', '?limit=101'],
    ['-1', '?limit=-1'],
    ['abc', '?limit=abc'],
    ['1.5', '?limit=1.5'],
    ['empty', '?limit='],
    ['1000', '?limit=1000'],
    ['1e1', '?limit=1e1'],
    ['a blank before the number', '?limit=%2010'],
    ['given twice', '?limit=5&limit=6'],
  ])('refuses %s', async (_name, query) => {
    await expectError(await list(merchant.testKey, query), 400, 'invalid_limit', 'limit');
  });
});

describe('GET /v1/payments: 400 invalid_cursor (field starting_after) for a cursor that is not one of the caller’s payments in this mode', () => {
  let own: string;
  let foreign: string;
  let otherMode: string;

  beforeAll(async () => {
    const [mine, theirs, live] = await Promise.all([
      createSession(platform, merchant.testKey),
      createSession(platform, other.testKey),
      createSession(platform, merchant.liveKey),
    ]);
    [own, foreign, otherMode] = [idOf(mine), idOf(theirs), idOf(live)];
  });

  it('accepts one of the caller’s own payments', async () => {
    expect((await list(merchant.testKey, `?starting_after=${own}`)).status).toBe(200);
  });

  it.each([
    ['an unknown well-formed id', () => UNKNOWN_ID],
    ['another account’s payment', () => foreign],
    ['the other mode’s payment', () => otherMode],
    ['a garbage string', () => 'garbage'],
    ['an empty string', () => ''],
    ['a payment id in lower case', () => own.toLowerCase()],
    ['a customer-style id', () => own.replace('pay_', 'cus_')],
    ['a cursor given twice', () => `${own}&starting_after=${own}`],
  ])('refuses %s', async (_name, cursor) => {
    await expectError(await list(merchant.testKey, `?starting_after=${cursor()}`), 400, 'invalid_cursor', 'starting_after');
  });

  it('refuses a Test payment as cursor of the Live list of the same account', async () => {
    await expectError(await list(merchant.liveKey, `?starting_after=${own}`), 400, 'invalid_cursor', 'starting_after');
  });
});

describe('GET /v1/payments: Test and Live lists are separate', () => {
  it('lists each mode’s payments only with that mode’s key, and never another account’s', async () => {
    const shop = await platform.merchant();
    const neighbour = await platform.merchant();
    const test = await createMany(shop.testKey, 3);
    const live = [idOf(await createSession(platform, shop.liveKey)), idOf(await createSession(platform, shop.liveKey))];
    await createSession(platform, neighbour.testKey);
    await createSession(platform, neighbour.liveKey);
    const testPage = await page(shop.testKey);
    const livePage = await page(shop.liveKey);
    expect(testPage.data.map(idOf)).toEqual([...test].reverse());
    expect(livePage.data.map(idOf)).toEqual([...live].reverse());
    expect(testPage.data.every((item) => item['livemode'] === false)).toBe(true);
    expect(livePage.data.every((item) => item['livemode'] === true)).toBe(true);
  });
});

// Moves the clock past every earlier payment's expiry, so it comes last.
describe('GET /v1/payments past expiry', () => {
  it('shows unpaid payments as expired and finished ones as they are, as GET /v1/payments/:id does', async () => {
    const shop = await platform.merchant();
    const ids = await Promise.all(Array.from({ length: 4 }, async () => idOf(await createSession(platform, shop.testKey, WITH_EMAIL))));
    const [, startedOnly, paid, failed] = ids as [string, string, string, string];
    for (const id of [startedOnly, paid, failed]) await start(shop.testKey, id);
    await simulate(shop.testKey, paid, 'paid');
    await simulate(shop.testKey, failed, 'failed');
    platform.clock.advance(DAY_MS);
    const listed = await page(shop.testKey);
    const statusOf = new Map(listed.data.map((item) => [idOf(item), item['status']]));
    expect(ids.map((id) => statusOf.get(id))).toEqual(['expired', 'expired', 'paid', 'failed']);
    expect(listed.data).toHaveLength(4);
    for (const item of listed.data) expect(await payment(shop.testKey, idOf(item))).toEqual(item);
  });

  it('shows a payment exactly at expires_at as expired, one just before as open', async () => {
    const shop = await platform.merchant();
    const early = idOf(await createSession(platform, shop.testKey));
    platform.clock.advance(1);
    const late = idOf(await createSession(platform, shop.testKey));
    platform.clock.advance(DAY_MS - 1);
    const listed = await page(shop.testKey);
    expect(listed.data.map((item) => [idOf(item), item['status']])).toEqual([
      [late, 'open'],
      [early, 'expired'],
    ]);
  });
});
