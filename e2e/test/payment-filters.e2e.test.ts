// Risk covered: GET /v1/payments filters (status, created[gte]/[lte], customer_email, reference, source)
// returning another status's, time's or mode's payments, paging that skips or repeats under a filter,
// and bad filter values answered with anything but 400 with a code and field (issue 29).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bodyOf, createSession, expectError, VALID_BODY, type Json } from './e2e-helpers.ts';
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

async function list(query: string, key = merchant.testKey): Promise<{ data: Json[]; has_more: boolean; next_cursor: string | null }> {
  const response = await platform.request('GET', `/v1/payments?${query}`, { key });
  const body = await bodyOf(response);
  expect(response.status).toBe(200);
  return body as unknown as { data: Json[]; has_more: boolean; next_cursor: string | null };
}

async function paidPayment(body: Json): Promise<string> {
  const id = String((await createSession(platform, merchant.testKey, body))['id']);
  expect((await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: merchant.testKey, body: {} })).status).toBe(200);
  expect((await platform.request('POST', `/v1/payments/${id}/simulate`, { key: merchant.testKey, body: { outcome: 'paid' } })).status).toBe(
    200,
  );
  return id;
}

describe('GET /v1/payments filters', () => {
  it('narrows by status, email (any case), reference and source, and pages stably under a filter', async () => {
    const paid: string[] = [];
    for (let i = 0; i < 5; i += 1)
      paid.push(await paidPayment({ ...VALID_BODY, customer_email: 'Filter@Example.com', reference: `ORD-${i}` }));
    const open = String((await createSession(platform, merchant.testKey, VALID_BODY))['id']);

    const byStatus = await list('status=paid&limit=100');
    expect(byStatus.data.map((p) => p['id'])).toEqual([...paid].reverse());
    expect(byStatus.data.every((p) => p['status'] === 'paid')).toBe(true);
    expect((await list('status=open')).data.map((p) => p['id'])).toEqual([open]);

    const pages: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(`status=paid&limit=2${cursor ? `&starting_after=${cursor}` : ''}`);
      pages.push(...page.data.map((p) => p['id']));
      cursor = page.next_cursor;
    } while (cursor);
    expect(pages).toEqual([...paid].reverse());

    expect((await list('customer_email=filter%40EXAMPLE.com&limit=100')).data).toHaveLength(5);
    expect((await list('reference=ORD-3')).data.map((p) => p['id'])).toEqual([paid[3]]);
    expect((await list('source=api&limit=100')).data).toHaveLength(6);
    expect((await list('source=payment_link')).data).toEqual([]);
    // The other mode sees none of them.
    expect((await list('status=paid', merchant.liveKey)).data).toEqual([]);
  });

  it('narrows by creation time, both bounds inclusive (Unix seconds)', async () => {
    const older = await createSession(platform, merchant.testKey, VALID_BODY);
    platform.clock.advance(10_000);
    const newer = await createSession(platform, merchant.testKey, VALID_BODY);
    const newerCreated = Number(newer['created']);
    const from = await list(`created[gte]=${newerCreated}&limit=100`);
    expect(from.data.map((p) => p['id'])).toContain(newer['id']);
    expect(from.data.map((p) => p['id'])).not.toContain(older['id']);
    const until = await list(`created[lte]=${Number(older['created'])}&limit=100`);
    expect(until.data.map((p) => p['id'])).toContain(older['id']);
    expect(until.data.map((p) => p['id'])).not.toContain(newer['id']);
    const exactly = await list(`created[gte]=${newerCreated}&created[lte]=${newerCreated}`);
    expect(exactly.data.map((p) => p['id'])).toEqual([newer['id']]);
  });

  it.each([
    ['status=refunded', 'invalid_request', 'status'],
    ['status=', 'invalid_request', 'status'],
    ['source=shop', 'invalid_request', 'source'],
    ['created[gte]=yesterday', 'invalid_request', 'created[gte]'],
    ['created[lte]=-1', 'invalid_request', 'created[lte]'],
    ['created[gte]=1&created[gte]=2', 'invalid_request', 'created[gte]'],
    ['customer_email=%FF', 'invalid_email', 'customer_email'],
    ['reference=a%00b', 'invalid_reference', 'reference'],
  ])('refuses %s with 400 %s (field %s)', async (query, code, field) => {
    await expectError(await platform.request('GET', `/v1/payments?${query}`, { key: merchant.testKey }), 400, code, field);
  });
});
