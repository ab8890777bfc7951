// Risk covered: customer and order lists skipping or repeating items across pages, accepting bad
// limits or foreign cursors, the email filter matching partially or by case only, and reads of
// another account's or mode's customer or order.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bodyOf, createSession, expectError, VALID_BODY, type Json } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

let platform: Platform;
let merchant: TestMerchant;
let other: TestMerchant;
/** Emails of this file's customers, oldest first. */
const emails = Array.from({ length: 5 }, (_, i) => `lister${i}@example.com`);
let customerIds: string[] = [];
const orderIds: string[] = [];

async function get(path: string, key = merchant.testKey): Promise<Response> {
  return platform.request('GET', path, { key });
}

async function list(path: string, key = merchant.testKey): Promise<Json> {
  const response = await get(path, key);
  expect(response.status).toBe(200);
  return bodyOf(response);
}

beforeAll(async () => {
  platform = await startPlatform();
  [merchant, other] = await Promise.all([platform.merchant(), platform.merchant()]);
  for (const email of emails) {
    // One clock second apart, so "newest first" has one right answer.
    platform.clock.advance(1000);
    const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: email });
    orderIds.push(String(session['id']));
  }
  // A second order of the first customer, and an email-less order.
  platform.clock.advance(1000);
  orderIds.push(String((await createSession(platform, merchant.testKey, { ...VALID_BODY, customer_email: emails[0] }))['id']));
  platform.clock.advance(1000);
  orderIds.push(String((await createSession(platform, merchant.testKey, VALID_BODY))['id']));
  // Orders and customers trail checkout by milliseconds: wait until every order arrived.
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline && ((await list('/v1/orders?limit=100'))['data'] as Json[]).length < orderIds.length) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const customers = await list('/v1/customers?limit=100');
  customerIds = (customers['data'] as Json[]).map((c) => String(c['id'])).reverse();
});
afterAll(async () => {
  await platform.stop();
});

describe('GET /v1/customers', () => {
  it('lists newest first by created, with the list page shape', async () => {
    const page = await list('/v1/customers');
    expect(Object.keys(page).sort()).toEqual(['data', 'has_more', 'next_cursor']);
    expect((page['data'] as Json[]).map((c) => c['email'])).toEqual([...emails].reverse());
    expect(page).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('returns 20 customers by default', async () => {
    const other = await platform.merchant();
    for (let i = 0; i < 21; i += 1) await createSession(platform, other.testKey, { ...VALID_BODY, customer_email: `many${i}@example.com` });
    const page = await list('/v1/customers?limit=100', other.testKey);
    expect((page['data'] as Json[]).length).toBe(21);
    const first = await list('/v1/customers', other.testKey);
    expect((first['data'] as Json[]).length).toBe(20);
    expect(first['has_more']).toBe(true);
  });

  it('pages with limit and starting_after without skipping or repeating', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Json = await list(`/v1/customers?limit=2${cursor ? `&starting_after=${cursor}` : ''}`);
      const ids = (page['data'] as Json[]).map((c) => String(c['id']));
      seen.push(...ids);
      cursor = page['next_cursor'] as string | null;
      expect(page['has_more']).toBe(cursor !== null);
      if (cursor) expect(cursor).toBe(ids.at(-1));
    } while (cursor);
    expect(seen).toEqual([...customerIds].reverse());
  });

  it('filters by email: any letter case, the whole address only, at most one item', async () => {
    const exact = await list(`/v1/customers?email=${encodeURIComponent('LISTER3@Example.COM')}`);
    expect((exact['data'] as Json[]).map((c) => c['email'])).toEqual(['lister3@example.com']);
    expect(exact).toMatchObject({ has_more: false, next_cursor: null });
    for (const partial of ['lister3', 'ister3@example.com', 'lister3@example.co', '%25lister3%25']) {
      expect((await list(`/v1/customers?email=${partial}`))['data']).toEqual([]);
    }
  });

  it('refuses a bad limit with 400 invalid_limit', async () => {
    for (const limit of ['0', '101', '-1', 'ten', '2.5', '']) {
      await expectError(await get(`/v1/customers?limit=${limit}`), 400, 'invalid_limit', 'limit');
    }
  });

  it("refuses a cursor that is not one of the caller's customers in this mode with 400 invalid_cursor", async () => {
    const foreign = await createSession(platform, other.testKey, { ...VALID_BODY, customer_email: 'foreign@example.com' });
    expect(foreign['id']).toBeDefined();
    const foreignCustomer = ((await list('/v1/customers', other.testKey))['data'] as Json[])[0]?.['id'] as string | undefined;
    expect(foreignCustomer).toBeDefined();
    for (const cursor of ['cus_unknown', 'pay_x', foreignCustomer!]) {
      await expectError(await get(`/v1/customers?starting_after=${cursor}`), 400, 'invalid_cursor', 'starting_after');
    }
    await expectError(
      await get(`/v1/customers?starting_after=${customerIds[0]!}`, merchant.liveKey),
      400,
      'invalid_cursor',
      'starting_after',
    );
  });
});

describe('GET /v1/customers/:id', () => {
  it("is 404 not_found for an unknown id, another account's customer, or the other mode", async () => {
    const id = customerIds[0]!;
    expect((await get(`/v1/customers/${id}`)).status).toBe(200);
    await expectError(await get('/v1/customers/cus_nope'), 404, 'not_found');
    await expectError(await get(`/v1/customers/${id}`, other.testKey), 404, 'not_found');
    await expectError(await get(`/v1/customers/${id}`, merchant.liveKey), 404, 'not_found');
  });
});

describe('GET /v1/orders', () => {
  it('lists every order newest first, with the order shape', async () => {
    const page = await list('/v1/orders?limit=100');
    const data = page['data'] as Json[];
    expect(data.map((o) => o['id'])).toEqual([...orderIds].reverse());
    expect(Object.keys(data[0]!).sort()).toEqual(
      [
        'id',
        'object',
        'livemode',
        'customer_id',
        'status',
        'amount',
        'currency',
        'email',
        'name',
        'phone',
        'shipping_address',
        'billing_address',
        'store_account',
        'created',
        'paid_at',
      ].sort(),
    );
    expect(data[0]).toMatchObject({ object: 'order', customer_id: null, email: null, status: 'open', amount: '25.00', currency: 'USD' });
  });

  it("lists one customer's orders by customer_id, paged", async () => {
    const first = customerIds[0]!;
    const page1 = await list(`/v1/orders?customer_id=${first}&limit=1`);
    expect(page1).toMatchObject({ has_more: true, next_cursor: orderIds[5] });
    const page2 = await list(`/v1/orders?customer_id=${first}&limit=1&starting_after=${String(page1['next_cursor'])}`);
    expect((page2['data'] as Json[]).map((o) => o['id'])).toEqual([orderIds[0]]);
    expect(page2).toMatchObject({ has_more: false, next_cursor: null });
    expect(((page1['data'] as Json[])[0] as Json)['customer_id']).toBe(first);
  });

  it("refuses a customer_id that is not the caller's in this mode with 404 not_found, and bad paging with 400", async () => {
    await expectError(await get('/v1/orders?customer_id=cus_nope'), 404, 'not_found', 'customer_id');
    await expectError(await get(`/v1/orders?customer_id=${customerIds[0]!}`, merchant.liveKey), 404, 'not_found', 'customer_id');
    await expectError(await get(`/v1/orders?customer_id=${customerIds[0]!}`, other.testKey), 404, 'not_found', 'customer_id');
    await expectError(await get('/v1/orders?limit=500'), 400, 'invalid_limit', 'limit');
    await expectError(await get('/v1/orders?starting_after=pay_unknown'), 400, 'invalid_cursor', 'starting_after');
  });

  it("reads one order; another account's or mode's is 404 not_found", async () => {
    const id = orderIds[0]!;
    expect(await list(`/v1/orders/${id}`)).toMatchObject({ id, object: 'order', email: emails[0] });
    await expectError(await get(`/v1/orders/${id}`, other.testKey), 404, 'not_found');
    await expectError(await get(`/v1/orders/${id}`, merchant.liveKey), 404, 'not_found');
  });
});
