// Risk covered: an operation of the /v1 API answering what its document does not promise (issue 34
// item 3): a 5xx, a status the document does not list for it, a body its schema does not allow, a
// request that hangs, or a refused request that still wrote something. Property-based over the whole
// surface, generated from the OpenAPI document itself (openapi-arbitraries.ts): every operation it
// lists, with its parameters and body schema, gets FUZZ_OPENAPI_RUNS requests (default 150: about two
// thousand in all), some valid, most not, with the caller's own key or another's, ids that exist in
// this account, in another or nowhere.
// Seeded: FUZZ_SEED replays a run (fast-check prints the seed and the shrunk request on failure).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { openApiDocument } from '@hc/gateway/testing';
import { checkContract } from './contract.ts';
import { createSession, type Json } from './e2e-helpers.ts';
import { operationsOf, requestTo, type FuzzRequest, type IdPools } from './openapi-arbitraries.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';
import { writeCounts } from './raw-http.ts';

const RUNS = Number(process.env['FUZZ_OPENAPI_RUNS'] ?? 150);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_124);
/** A valid body per operation, mutated one field at a time (openapi-arbitraries.ts wireBody). */
const EXAMPLES: Record<string, Json> = {
  'POST /v1/checkout_sessions': {
    amount: '19.90',
    currency: 'USD',
    description: 'Blue mug',
    customer_email: 'ann@shop.example',
    metadata: { cart: 'c_1' },
  },
  'POST /v1/checkout_sessions/{id}/start': { country: 'de', customer_email: 'ann@shop.example' },
  'POST /v1/payments/{id}/simulate': { outcome: 'paid' },
  'POST /v1/webhook_endpoints': { url: 'https://127.0.0.1:9/hooks', enabled_events: ['payment.paid'] },
  'POST /v1/webhook_endpoints/{id}': { description: 'Fuzz' },
  'POST /v1/payment_links': { amount: '9.00', currency: 'EUR', description: 'Fuzz link', lifetime: '2h' },
};

/**
 * GET /v1/listen is a long poll (up to 25 s, the default): a valid or absent `wait` is cut to 1 s so
 * the run stays within its deadline; any other value is sent as generated.
 */
function shortPoll(method: string, path: string): string {
  const [pathname = '', search = ''] = path.split('?', 2);
  if (method !== 'GET' || pathname !== '/v1/listen') return path;
  const pairs = search === '' ? [] : search.split('&');
  const waits = pairs.filter((pair) => pair.startsWith('wait='));
  if (waits.length > 1 || (waits.length === 1 && !/^wait=[0-9]{1,2}$/.test(waits[0]!))) return path;
  // Other parameters stay byte for byte as generated.
  return `${pathname}?${[...pairs.filter((pair) => !pair.startsWith('wait=')), 'wait=1'].join('&')}`;
}
/** Webhook endpoints made per account before the run (see seed). */
const ENDPOINTS = 60;
/** A request that takes longer than this is a hang. */
const REQUEST_DEADLINE_MS = 10_000;

const document = openApiDocument() as Json;
const operations = operationsOf(document);

let platform: Platform;
let own: TestMerchant;
let other: TestMerchant;
let ids: IdPools;

/** Payments in every state, customers, orders and events, in this account and another. */
async function seed(merchant: TestMerchant): Promise<Record<keyof IdPools, string[]>> {
  const key = merchant.testKey;
  const outcomes = [undefined, 'started', 'paid', 'underpaid', 'failed'] as const;
  const payments: string[] = [];
  for (const [i, outcome] of outcomes.entries()) {
    const session = await createSession(platform, key, {
      amount: '12.50',
      currency: 'USD',
      description: 'Fuzz',
      customer_email: `fuzz${i}@shop.example`,
    });
    const id = String(session['id']);
    payments.push(id);
    if (outcome === undefined) continue;
    await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key, body: { country: 'de' } });
    if (outcome !== 'started') await platform.request('POST', `/v1/payments/${id}/simulate`, { key, body: { outcome } });
  }
  const list = async (path: string): Promise<string[]> => {
    const response = await platform.request('GET', path, { key });
    const body = (await response.json()) as { data?: { id: string }[] };
    return (body.data ?? []).map((item) => item.id);
  };
  // Enough endpoints that DELETE's picks leave some for rotate_secret, which the document lists after it.
  const endpoints: string[] = [];
  for (let i = 0; i < ENDPOINTS; i += 1) {
    const response = await platform.request('POST', '/v1/webhook_endpoints', { key, body: { url: `https://127.0.0.1:9/fuzz/${i}` } });
    endpoints.push(String(((await response.json()) as { id: string }).id));
  }
  const paymentLinks: string[] = [];
  for (let i = 0; i < 5; i += 1) {
    const response = await platform.request('POST', '/v1/payment_links', {
      key,
      body: { amount: '3.00', currency: 'EUR', description: 'Fuzz' },
    });
    paymentLinks.push(String(((await response.json()) as { id: string }).id));
  }
  return {
    payments,
    customers: await list('/v1/customers'),
    orders: await list('/v1/orders'),
    events: await list('/v1/events'),
    endpoints,
    paymentLinks,
  };
}

beforeAll(async () => {
  platform = await startPlatform({ webhooks: true });
  [own, other] = [await platform.merchant(), await platform.merchant()];
  const [mine, theirs] = [await seed(own), await seed(other)];
  ids = {
    payments: [...mine.payments, ...theirs.payments.slice(0, 2)],
    customers: [...mine.customers, ...theirs.customers.slice(0, 1)],
    orders: [...mine.orders, ...theirs.orders.slice(0, 1)],
    events: [...mine.events, ...theirs.events.slice(0, 1)],
    endpoints: [...mine.endpoints, ...theirs.endpoints.slice(0, 1)],
    paymentLinks: [...mine.paymentLinks, ...theirs.paymentLinks.slice(0, 1)],
  };
}, 120_000);

afterAll(async () => {
  await platform?.stop();
});

function authorization(auth: FuzzRequest['auth']): Record<string, string> {
  switch (auth) {
    case 'own':
      return { authorization: `Bearer ${own.testKey}` };
    case 'live':
      return { authorization: `Bearer ${own.liveKey}` };
    case 'other':
      return { authorization: `Bearer ${other.testKey}` };
    case 'malformed':
      return { authorization: 'Bearer sk_test_not-a-key' };
    case 'none':
      return {};
  }
}

/** Statuses seen per operation, printed for docs/reliability.md. */
const tally: Record<string, Record<number, number>> = {};

describe.each(operations.map((operation) => ({ ...operation, name: `${operation.method} ${operation.template}` })))(
  '$name',
  (operation) => {
    it(
      `answers ${RUNS} generated requests with documented statuses and bodies, never a 5xx or a hang, writing nothing when refused`,
      async () => {
        await fc.assert(
          fc.asyncProperty(requestTo(operation, document, ids, EXAMPLES[operation.name]), async (request) => {
            const writes = request.method === 'GET' ? undefined : await writeCounts(platform);
            const path = shortPoll(request.method, request.path);
            const response = await fetch(`${platform.url}${path}`, {
              method: request.method,
              headers: {
                ...authorization(request.auth),
                ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
                ...(request.idempotencyKey === undefined ? {} : { 'idempotency-key': request.idempotencyKey }),
              },
              ...(request.body === undefined ? {} : { body: request.body }),
              signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
            });
            const counts = (tally[`${operation.method} ${operation.template}`] ??= {});
            counts[response.status] = (counts[response.status] ?? 0) + 1;
            expect(response.status).toBeLessThan(500);
            expect(operation.statuses.has(response.status) ? 'documented' : `undocumented ${response.status}`).toBe('documented');
            // The body and headers against the document's schema for this status (closed schemas).
            await checkContract(request.method, path, response);
            if (writes && response.status >= 400) expect(await writeCounts(platform)).toEqual(writes);
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      },
      60_000 + RUNS * 1_000,
    );
  },
);

it('reports what the fuzz reached', () => {
  console.info(
    `OpenAPI fuzz, seed ${SEED}, ${RUNS} requests per operation, ${operations.length} operations:\n${JSON.stringify(tally, null, 1)}`,
  );
  // Each operation that takes input was answered more than one way, and each that can succeed did
  // at least once: the generator reaches past the first refusal.
  for (const operation of operations.filter((o) => o.parameters.length > 0 || o.bodySchema)) {
    const name = `${operation.method} ${operation.template}`;
    const statuses = Object.keys(tally[name] ?? {}).map(Number);
    expect({ name, kinds: statuses.length > 1, succeeded: statuses.some((status) => status < 300) }).toEqual({
      name,
      kinds: true,
      succeeded: true,
    });
  }
});
