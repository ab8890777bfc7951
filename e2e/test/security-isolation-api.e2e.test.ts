// Risk covered: one merchant's key reaching another merchant's objects, or one mode's key the other
// mode's, through any /v1 operation that takes an id — in the path, as a list cursor or as a filter —
// reading them or changing them (start, simulate); an operation added to docs/openapi.json without
// such a check; and the buyer pages (no key: the id is the capability) serving one kind of object at
// another kind's address, or showing a buyer what the hosted view must never carry (metadata,
// settlement, the payout wallet, the account). The focused files (isolation, payments,
// start-checkout-session, simulate, customer-lists, events-api) test each operation on its own; this
// matrix runs every one of them from the three foreign positions and checks nothing changed.
// docs/security.md, "Object-level authorization".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { loadPagesConfig, startPages, type RunningPages } from '@hc/pages';
import { CheckoutAdminService } from '@hc/proto/checkout/v1';
import { bodyOf, eventually, expectError, type Json } from './e2e-helpers.ts';
import { startPlatform, WALLET, type Platform, type TestMerchant } from './platform-harness.ts';

type Mode = 'test' | 'live';
interface Ids {
  payment: string;
  customer: string;
  order: string;
  event: string;
  /** Made through the secret-key API (issue 29, ADR 0045). */
  endpoint: string;
  paymentLink: string;
}

let platform: Platform;
let pages: RunningPages;
let victim: TestMerchant;
let other: TestMerchant;
const owned = {} as Record<Mode, Ids>;
/** Test objects of the victim for the buyer pages: a payment link, a checkout. */
let link = '';
let checkout = '';
const SECRET_METADATA = 'metadata-only-the-merchant-sees';

const keyOf = (merchant: TestMerchant, mode: Mode) => (mode === 'test' ? merchant.testKey : merchant.liveKey);

/** A payment of the victim with a buyer, started; Test ones also paid, so every object exists. */
async function makeObjects(mode: Mode): Promise<Ids> {
  const key = keyOf(victim, mode);
  const email = `buyer-${mode}@buyer.example`;
  const created = await platform.request('POST', '/v1/checkout_sessions', {
    key,
    body: {
      amount: '20.00',
      currency: 'USD',
      description: 'Victim mug',
      customer_email: email,
      metadata: { note: SECRET_METADATA },
      customer: { name: 'Vic Tim', phone: '+1 555 0100', shipping_address: { line1: '1 Secret Road', country: 'US' } },
    },
  });
  expect(created.status).toBe(201);
  const payment = String((await bodyOf(created))['id']);
  expect((await platform.request('POST', `/v1/checkout_sessions/${payment}/start`, { key, body: { country: 'us' } })).status).toBe(200);
  if (mode === 'test')
    expect((await platform.request('POST', `/v1/payments/${payment}/simulate`, { key, body: { outcome: 'paid' } })).status).toBe(200);
  const customers = (await bodyOf(await platform.request('GET', `/v1/customers?email=${email}`, { key })))['data'] as Json[];
  const customer = String(customers[0]!['id']);
  const orders = (await bodyOf(await platform.request('GET', `/v1/orders?customer_id=${customer}`, { key })))['data'] as Json[];
  const events = await eventually(
    async () => (await bodyOf(await platform.request('GET', '/v1/events', { key })))['data'] as Json[],
    (list) => list.length > 0,
    20_000,
  );
  const endpoint = await platform.request('POST', '/v1/webhook_endpoints', {
    key,
    body: { url: 'https://127.0.0.1:9/victim', description: 'Victim endpoint' },
  });
  expect(endpoint.status).toBe(201);
  const paymentLink = await platform.request('POST', '/v1/payment_links', {
    key,
    body: { amount: '7.00', currency: 'EUR', description: 'Victim link', customer_name: 'Vic Tim' },
  });
  expect(paymentLink.status).toBe(201);
  return {
    payment,
    customer,
    order: String(orders[0]!['id']),
    event: String(events[0]!['id']),
    endpoint: String((await bodyOf(endpoint))['id']),
    paymentLink: String((await bodyOf(paymentLink))['id']),
  };
}

beforeAll(async () => {
  platform = await startPlatform({ webhooks: true });
  pages = await startPages(
    loadPagesConfig({ PAGES_PORT: '0', CHECKOUT_GRPC_ADDRESS: platform.stack.checkout.address, LOG_LEVEL: 'silent' }),
    createLogger('pages', { level: 'silent' }),
  );
  [victim, other] = await Promise.all([platform.merchant(), platform.merchant()]);
  owned.test = await makeObjects('test');
  owned.live = await makeObjects('live');
  const admin = createServiceClient(CheckoutAdminService, platform.stack.checkout.address);
  const ctx: CallContext = { accountId: victim.accountId, livemode: false, requestId: 'req_security' };
  const account = { payoutWallet: WALLET, feeBps: 150, merchantName: 'Victim shop' };
  try {
    link = (await admin.createPaymentLink({ amount: '5.00', currency: 'EUR', description: 'Victim link', account }, ctx)).payment!.id;
    checkout = (await admin.createCheckout({ kind: 'page', description: 'Victim checkout', currency: 'EUR', amount: '5.00', account }, ctx))
      .checkout!.id;
  } finally {
    admin.close();
  }
}, 180_000);
afterAll(async () => {
  await pages?.stop();
  await platform?.stop();
});

/** What the victim's objects look like through the victim's own keys: must be the same after every attempt. */
async function victimState(): Promise<unknown> {
  const read = async (mode: Mode, path: string) => bodyOf(await platform.request('GET', path, { key: keyOf(victim, mode) }));
  const state: Record<string, unknown> = {};
  for (const mode of ['test', 'live'] as const) {
    const ids = owned[mode];
    state[mode] = {
      payment: await read(mode, `/v1/payments/${ids.payment}`),
      customer: await read(mode, `/v1/customers/${ids.customer}`),
      order: await read(mode, `/v1/orders/${ids.order}`),
      payments: await read(mode, '/v1/payments?limit=100'),
      endpoints: await read(mode, '/v1/webhook_endpoints'),
      paymentLink: await read(mode, `/v1/payment_links/${ids.paymentLink}`),
    };
  }
  return state;
}

/** Every /v1 operation that takes an id: in the path, as a cursor, or as a filter. */
const OPERATIONS: { op: string; request: (ids: Ids) => [string, string, unknown?]; refusal: [number, string, string?] }[] = [
  { op: 'GET /v1/checkout_sessions/{id}', request: (ids) => ['GET', `/v1/checkout_sessions/${ids.payment}`], refusal: [404, 'not_found'] },
  {
    op: 'POST /v1/checkout_sessions/{id}/start',
    request: (ids) => ['POST', `/v1/checkout_sessions/${ids.payment}/start`, { customer_email: 'thief@evil.example', country: 'de' }],
    refusal: [404, 'not_found'],
  },
  { op: 'GET /v1/payments/{id}', request: (ids) => ['GET', `/v1/payments/${ids.payment}`], refusal: [404, 'not_found'] },
  {
    op: 'POST /v1/payments/{id}/simulate',
    request: (ids) => ['POST', `/v1/payments/${ids.payment}/simulate`, { outcome: 'failed' }],
    refusal: [404, 'not_found'],
  },
  {
    op: 'GET /v1/payments (starting_after)',
    request: (ids) => ['GET', `/v1/payments?starting_after=${ids.payment}`],
    refusal: [400, 'invalid_cursor', 'starting_after'],
  },
  { op: 'GET /v1/customers/{id}', request: (ids) => ['GET', `/v1/customers/${ids.customer}`], refusal: [404, 'not_found'] },
  {
    op: 'GET /v1/customers (starting_after)',
    request: (ids) => ['GET', `/v1/customers?starting_after=${ids.customer}`],
    refusal: [400, 'invalid_cursor', 'starting_after'],
  },
  { op: 'GET /v1/orders/{id}', request: (ids) => ['GET', `/v1/orders/${ids.order}`], refusal: [404, 'not_found'] },
  {
    op: 'GET /v1/orders (customer_id)',
    request: (ids) => ['GET', `/v1/orders?customer_id=${ids.customer}`],
    refusal: [404, 'not_found', 'customer_id'],
  },
  {
    op: 'GET /v1/orders (starting_after)',
    request: (ids) => ['GET', `/v1/orders?starting_after=${ids.order}`],
    refusal: [400, 'invalid_cursor', 'starting_after'],
  },
  { op: 'GET /v1/events/{id}', request: (ids) => ['GET', `/v1/events/${ids.event}`], refusal: [404, 'not_found'] },
  {
    op: 'GET /v1/events (starting_after)',
    request: (ids) => ['GET', `/v1/events?starting_after=${ids.event}`],
    refusal: [400, 'invalid_cursor', 'starting_after'],
  },
  { op: 'GET /v1/webhook_endpoints/{id}', request: (ids) => ['GET', `/v1/webhook_endpoints/${ids.endpoint}`], refusal: [404, 'not_found'] },
  {
    op: 'POST /v1/webhook_endpoints/{id}',
    request: (ids) => ['POST', `/v1/webhook_endpoints/${ids.endpoint}`, { url: 'https://evil.example/steal', status: 'disabled' }],
    refusal: [404, 'not_found'],
  },
  {
    op: 'DELETE /v1/webhook_endpoints/{id}',
    request: (ids) => ['DELETE', `/v1/webhook_endpoints/${ids.endpoint}`],
    refusal: [404, 'not_found'],
  },
  {
    op: 'POST /v1/webhook_endpoints/{id}/rotate_secret',
    request: (ids) => ['POST', `/v1/webhook_endpoints/${ids.endpoint}/rotate_secret`],
    refusal: [404, 'not_found'],
  },
  {
    op: 'POST /v1/webhook_endpoints/{id}/check',
    request: (ids) => ['POST', `/v1/webhook_endpoints/${ids.endpoint}/check`],
    refusal: [404, 'not_found'],
  },
  { op: 'GET /v1/payment_links/{id}', request: (ids) => ['GET', `/v1/payment_links/${ids.paymentLink}`], refusal: [404, 'not_found'] },
  {
    op: 'POST /v1/payment_links/{id}/cancel',
    request: (ids) => ['POST', `/v1/payment_links/${ids.paymentLink}/cancel`],
    refusal: [404, 'not_found'],
  },
  {
    op: 'GET /v1/payment_links (starting_after)',
    request: (ids) => ['GET', `/v1/payment_links?starting_after=${ids.paymentLink}`],
    refusal: [400, 'invalid_cursor', 'starting_after'],
  },
];

describe('the matrix covers every operation of docs/openapi.json that takes an id', () => {
  it('each path with {id}, and each list with starting_after or customer_id, is in the matrix', () => {
    const openapi = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'openapi.json'), 'utf8')) as { paths: unknown };
    const taking: string[] = [];
    for (const [path, item] of Object.entries(openapi.paths as Record<string, Record<string, { parameters?: { name?: string }[] }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const params = (operation.parameters ?? []).map((p) => p.name);
        if (path.includes('{id}')) taking.push(`${method.toUpperCase()} ${path}`);
        for (const name of ['starting_after', 'customer_id'])
          if (params.includes(name)) taking.push(`${method.toUpperCase()} ${path} (${name})`);
      }
    }
    expect(taking.sort()).toEqual(OPERATIONS.map((o) => o.op).sort());
  });
});

describe.each([
  ['another account’s Test key', (mode: Mode) => [other.testKey, mode] as const],
  ['another account’s Live key', (mode: Mode) => [other.liveKey, mode] as const],
  ['the owner’s key of the other mode', (mode: Mode) => [keyOf(victim, mode === 'test' ? 'live' : 'test'), mode] as const],
])('%s', (_name, attacker) => {
  it.each(OPERATIONS.flatMap((o) => (['test', 'live'] as const).map((mode) => [o.op, mode, o] as const)))(
    '%s with the victim’s %s id: refused as if it did not exist, nothing changed',
    async (_op, mode, operation) => {
      const [key] = attacker(mode);
      const [method, path, body] = operation.request(owned[mode]);
      // A read cannot change anything; a refused write must not have (read back through the owner's keys).
      const before = method !== 'GET' ? await victimState() : null;
      const response = await platform.request(method, path, { key, body });
      const [status, code, field] = operation.refusal;
      const refused = await expectError(response, status, code, field);
      expect(JSON.stringify(refused)).not.toContain('Victim');
      if (before !== null) expect(await victimState()).toEqual(before);
    },
  );

  it('the email filter of customers finds none of the victim’s buyers', async () => {
    for (const mode of ['test', 'live'] as const) {
      const [key] = attacker(mode);
      const page = await bodyOf(await platform.request('GET', `/v1/customers?email=buyer-${mode}@buyer.example`, { key }));
      expect(page['data']).toEqual([]);
    }
  });
});

describe('the buyer pages (no key: the unguessable id is the capability)', () => {
  const page = async (path: string) => {
    const response = await fetch(`${pages.url}${path}`, { redirect: 'manual' });
    return { status: response.status, body: await response.text() };
  };

  it.each([
    ['a checkout’s id as a payment page', () => `/pay/${checkout}`],
    ['a checkout’s id as a payment’s status', () => `/pay/${checkout}/status`],
    ['a checkout’s id as a tracking page', () => `/track/${checkout}`],
    ['an API payment as a tracking page (only payment links have one)', () => `/track/${owned.test.payment}`],
    ['a payment as a checkout page', () => `/c/${owned.test.payment}`],
    ['a payment link as a checkout page', () => `/c/${link}`],
    ['a customer id as a payment page', () => `/pay/${owned.test.customer}`],
    ['an event id as a payment page', () => `/pay/${owned.test.event}`],
  ])('%s is 404, with nothing of the object', async (_name, path) => {
    const { status, body } = await page(path());
    expect(status).toBe(404);
    expect(body).not.toMatch(/Victim/);
  });

  it('an action on a checkout address that is not a checkout makes no payment', async () => {
    const before = await victimState();
    const response = await fetch(`${pages.url}/c/${link}/pay`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: 'plan=1&amount=5.00',
    });
    expect(response.status).toBe(404);
    expect(await victimState()).toEqual(before);
  });

  it.each(['test', 'live'] as const)(
    'a %s payment’s page shows none of what only the merchant may see (metadata, settlement, payout wallet, account, phone, address)',
    async (mode) => {
      const { payment } = owned[mode];
      const object = await bodyOf(await platform.request('GET', `/v1/payments/${payment}`, { key: keyOf(victim, mode) }));
      const settlement = object['settlement'] as Record<string, string | null>;
      const hidden = [
        SECRET_METADATA,
        WALLET,
        victim.accountId,
        '+1 555 0100',
        '1 Secret Road',
        settlement['txid_in'],
        settlement['txid_out'],
      ];
      for (const path of [`/pay/${payment}`, `/pay/${payment}/status`]) {
        const { status, body } = await page(path);
        expect(status).toBe(200);
        expect(hidden.filter((value): value is string => typeof value === 'string' && body.includes(value))).toEqual([]);
      }
    },
  );
});

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The id `delta` steps from `id` in the random part of its ULID (same prefix, same millisecond). */
function neighbour(id: string, delta: number): string {
  const prefix = id.slice(0, id.indexOf('_') + 1);
  const ulid = id.slice(prefix.length);
  let value = 0n;
  for (const char of ulid.slice(10)) value = value * 32n + BigInt(CROCKFORD.indexOf(char));
  value += BigInt(delta);
  let random = '';
  for (let i = 0; i < 16; i += 1) {
    random = CROCKFORD[Number(value & 31n)]! + random;
    value >>= 5n;
  }
  return prefix + ulid.slice(0, 10) + random;
}

describe('ids are capabilities: a payment’s page cannot be found from another payment’s id', () => {
  it('the ids next to one’s own (made in the same millisecond, by shops creating at the same time) are not another merchant’s pages', async () => {
    const mine: string[] = [];
    const theirs = new Set<string>();
    // Two busy shops creating at the same moment: ids of one process and one millisecond come out together.
    await Promise.all(
      Array.from({ length: 80 }, async (_, i) => {
        const attacker = i % 2 === 0;
        const response = await platform.request('POST', '/v1/checkout_sessions', {
          key: attacker ? other.testKey : victim.testKey,
          body: attacker
            ? { amount: '5.00', currency: 'USD', description: 'Probe' }
            : { amount: '5.00', currency: 'USD', description: 'Victim neighbour', customer_email: 'neighbour@buyer.example' },
        });
        const id = String((await bodyOf(response))['id']);
        if (attacker) mine.push(id);
        else theirs.add(id);
      }),
    );
    const guesses = mine.flatMap((id) => [-3, -2, -1, 1, 2, 3].map((delta) => neighbour(id, delta)));
    const found = guesses.filter((guess) => theirs.has(guess));
    // What a found id would give the attacker: the victim's buyer and a page to act on.
    const exposed = await Promise.all(found.slice(0, 3).map(async (id) => (await fetch(`${pages.url}/pay/${id}`)).text()));
    expect({ found, exposedEmails: exposed.filter((html) => html.includes('neighbour@buyer.example')).length }).toEqual({
      found: [],
      exposedEmails: 0,
    });
  });
});

// Issue 35 (b), a suspended account's buyer pages: e2e/test/suspension.e2e.test.ts (docs/security.md).
