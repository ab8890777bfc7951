// Risk covered: POST /v1/checkout_sessions/:id/start answers a shape other than the spec's (session + country + providers), starts twice (a second started_at or payout wallet), starts what it must refuse, or names the wrong status, code or field for a refusal.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bodyOf, createSession, expectError, retrieve, SESSION_FIELDS, VALID_BODY, type Json } from './e2e-helpers.ts';
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
const PROVIDER_FIELDS = ['id', 'name', 'note', 'recommended', 'handoff_url'];
const DAY_MS = 24 * 60 * 60 * 1000;
const UNKNOWN_ID = 'pay_01ARZ3NDEKTSV4RRFFQ69G5FAV';

const idOf = (object: Json): string => String(object['id']);
const nowSeconds = (): number => unixSeconds(platform.clock.now());

function start(key: string, id: string, body: unknown = {}, headers?: Record<string, string>): Promise<Response> {
  return platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key, body, ...(headers ? { headers } : {}) });
}

/** Starts a session that must start, and returns the 200 body. */
async function started(key: string, id: string, body: unknown = {}): Promise<Json> {
  const response = await start(key, id, body);
  const result = await bodyOf(response);
  expect({ status: response.status, result }).toEqual({ status: 200, result: expect.objectContaining({ id }) });
  return result;
}

async function read(key: string, id: string): Promise<Json> {
  const response = await retrieve(platform, key, id);
  expect(response.status).toBe(200);
  return bodyOf(response);
}

async function payment(key: string, id: string): Promise<Json> {
  const response = await platform.request('GET', `/v1/payments/${id}`, { key });
  expect(response.status).toBe(200);
  return bodyOf(response);
}

function simulate(key: string, id: string, outcome: string): Promise<Response> {
  return platform.request('POST', `/v1/payments/${id}/simulate`, { key, body: { outcome } });
}

const settlementOf = (object: Json): Json => object['settlement'] as Json;
const providersOf = (result: Json): Json[] => result['providers'] as Json[];

/** The session fields of a start answer (without country and providers). */
function sessionPart(result: Json): Json {
  return Object.fromEntries(Object.entries(result).filter(([key]) => key !== 'country' && key !== 'providers'));
}

/** The refusal left the session as it was: unstarted and open. */
async function expectUnstarted(key: string, id: string): Promise<void> {
  expect(await read(key, id)).toMatchObject({ status: 'open', started_at: null });
  expect(settlementOf(await payment(key, id))).toMatchObject({ payout_wallet: null });
}

describe('a successful start', () => {
  it('answers 200 with the checkout session object plus country and providers, and nothing else', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    const result = await started(merchant.testKey, idOf(session), { country: 'US' });
    expect(Object.keys(result).sort()).toEqual([...SESSION_FIELDS, 'country', 'providers'].sort());
    expect(result).toMatchObject({ object: 'checkout_session', status: 'open', country: 'US', customer_email: 'buyer@example.com' });
    expect(sessionPart(result)).toEqual(await read(merchant.testKey, idOf(session)));
  });

  it('sets started_at to the time of the start, in Unix seconds, where it was null', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    expect(session['started_at']).toBeNull();
    const result = await started(merchant.testKey, idOf(session));
    expect(result['started_at']).toBe(nowSeconds());
    expect((await read(merchant.testKey, idOf(session)))['started_at']).toBe(nowSeconds());
  });

  it.each([
    ['de', 'DE'],
    ['De', 'DE'],
    ['us', 'US'],
    ['GB', 'GB'],
  ])('answers country %s uppercased as %s', async (sent, shown) => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    expect((await started(merchant.testKey, idOf(session), { country: sent }))['country']).toBe(shown);
  });

  it('answers country null when none was sent (absent or null)', async () => {
    const first = await createSession(platform, merchant.testKey, WITH_EMAIL);
    expect((await started(merchant.testKey, idOf(first), {}))['country']).toBeNull();
    const second = await createSession(platform, merchant.testKey, WITH_EMAIL);
    expect((await started(merchant.testKey, idOf(second), { country: null }))['country']).toBeNull();
  });

  it('starts in Live mode with the live key, as a Live session', async () => {
    const session = await createSession(platform, merchant.liveKey, WITH_EMAIL);
    const result = await started(merchant.liveKey, idOf(session), { country: 'fr' });
    expect(result).toMatchObject({ livemode: true, status: 'open', started_at: nowSeconds(), country: 'FR' });
    expect(settlementOf(await payment(merchant.liveKey, idOf(session)))['payout_wallet']).toBe(WALLET);
  });
});

describe('providers: each entry is exactly id, name, note, recommended, handoff_url; exactly one is recommended, the first', () => {
  it.each([
    ['25.00 USD without a country', { amount: '25.00', currency: 'USD' }, undefined],
    ['25.00 EUR in Germany', { amount: '25.00', currency: 'EUR' }, 'de'],
    ['75.00 GBP in the UK', { amount: '75.00', currency: 'GBP' }, 'GB'],
    ['100.00 CAD in Canada', { amount: '100.00', currency: 'CAD' }, 'ca'],
    ['1.00 AUD in Australia', { amount: '1.00', currency: 'AUD' }, 'AU'],
    ['100000.00 USD in Japan', { amount: '100000.00', currency: 'USD' }, 'JP'],
  ])('for %s', async (_name, price, country) => {
    const session = await createSession(platform, merchant.testKey, { ...WITH_EMAIL, ...price });
    const providers = providersOf(await started(merchant.testKey, idOf(session), country === undefined ? {} : { country }));
    expect(providers.length).toBeGreaterThanOrEqual(1);
    for (const provider of providers) {
      expect(Object.keys(provider).sort()).toEqual([...PROVIDER_FIELDS].sort());
      expect(provider).toEqual({
        id: expect.stringMatching(/^\S+$/),
        name: expect.stringMatching(/\S/),
        note: expect.stringMatching(/\S/),
        recommended: expect.any(Boolean),
        handoff_url: expect.stringMatching(/^https:\/\/\S+$/),
      });
      expect(() => new URL(String(provider['handoff_url']))).not.toThrow();
    }
    expect(providers.filter((provider) => provider['recommended'] === true)).toHaveLength(1);
    expect(providers[0]?.['recommended']).toBe(true);
    expect(new Set(providers.map(idOf)).size).toBe(providers.length);
  });

  it('offers the same providers again when the session is started again with the same country', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    const first = await started(merchant.testKey, idOf(session), { country: 'NL' });
    const second = await started(merchant.testKey, idOf(session), { country: 'nl' });
    expect(second['providers']).toEqual(first['providers']);
  });
});

describe('starting again changes nothing but the email', () => {
  it('keeps started_at although the clock moved between the starts', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    const first = await started(merchant.testKey, idOf(session));
    platform.clock.advance(90_000);
    const second = await started(merchant.testKey, idOf(session));
    expect(second['started_at']).toBe(first['started_at']);
    expect(second['started_at']).toBe(nowSeconds() - 90);
    expect((await read(merchant.testKey, idOf(session)))['started_at']).toBe(first['started_at']);
    expect(sessionPart(second)).toEqual(sessionPart(first));
  });

  it('keeps the settlement payout wallet fixed at the first start, even after the merchant changes wallets', async () => {
    const shop = await platform.merchant();
    const session = await createSession(platform, shop.testKey, WITH_EMAIL);
    await started(shop.testKey, idOf(session));
    expect(settlementOf(await payment(shop.testKey, idOf(session)))['payout_wallet']).toBe(WALLET);
    await platform.operations.setPayoutWallet(shop.accountId, '0x3333333333333333333333333333333333333333');
    platform.clock.advance(1_000);
    await started(shop.testKey, idOf(session));
    expect(settlementOf(await payment(shop.testKey, idOf(session)))['payout_wallet']).toBe(WALLET);
  });

  it('gives two concurrent starts of the same session the same started_at', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    const [first, second] = await Promise.all([started(merchant.testKey, idOf(session)), started(merchant.testKey, idOf(session))]);
    expect(first['started_at']).toBe(nowSeconds());
    expect(second['started_at']).toBe(first['started_at']);
    expect((await read(merchant.testKey, idOf(session)))['started_at']).toBe(first['started_at']);
  });
});

describe('the email at start', () => {
  it('keeps the saved email when none is sent', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    expect((await started(merchant.testKey, idOf(session)))['customer_email']).toBe('buyer@example.com');
  });

  it('replaces the saved email with a new one, lowercased', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    const result = await started(merchant.testKey, idOf(session), { customer_email: 'New.Buyer@Example.COM' });
    expect(result['customer_email']).toBe('new.buyer@example.com');
    expect((await read(merchant.testKey, idOf(session)))['customer_email']).toBe('new.buyer@example.com');
  });

  it('gives a session created without email the email sent at start, lowercased', async () => {
    const session = await createSession(platform, merchant.testKey, VALID_BODY);
    const result = await started(merchant.testKey, idOf(session), { customer_email: 'Late@Example.com' });
    expect(result).toMatchObject({ customer_email: 'late@example.com', started_at: nowSeconds() });
  });

  it('replaces the email when a started session is started again with another one, keeping started_at', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    const first = await started(merchant.testKey, idOf(session));
    platform.clock.advance(5_000);
    const second = await started(merchant.testKey, idOf(session), { customer_email: 'SECOND@example.com' });
    expect(second).toMatchObject({ customer_email: 'second@example.com', started_at: first['started_at'] });
    expect(await payment(merchant.testKey, idOf(session))).toMatchObject({ customer_email: 'second@example.com' });
  });
});

describe('400 invalid_email: no email to start with', () => {
  it('refuses a session without email when none is sent (field customer_email), and starts nothing', async () => {
    const session = await createSession(platform, merchant.testKey, VALID_BODY);
    await expectError(await start(merchant.testKey, idOf(session), {}), 400, 'invalid_email', 'customer_email');
    await expectError(await start(merchant.testKey, idOf(session), { customer_email: null }), 400, 'invalid_email', 'customer_email');
    await expectUnstarted(merchant.testKey, idOf(session));
  });

  it.each([
    ['no @', 'buyer.example.com'],
    ['nothing before @', '@example.com'],
    ['nothing after @', 'buyer@'],
    ['a space inside', 'bu yer@example.com'],
    ['two @', 'a@b@example.com'],
    ['an empty string', ''],
    ['blanks', '   '],
  ])('refuses a malformed email (%s) with field customer_email, also when one is saved', async (_name, email) => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    await expectError(await start(merchant.testKey, idOf(session), { customer_email: email }), 400, 'invalid_email', 'customer_email');
    await expectUnstarted(merchant.testKey, idOf(session));
    expect((await read(merchant.testKey, idOf(session)))['customer_email']).toBe('buyer@example.com');
  });

  it.each([
    ['a number', 42],
    ['a boolean', true],
    ['an array', ['buyer@example.com']],
    ['an object', { email: 'buyer@example.com' }],
  ])('refuses customer_email that is %s with field customer_email', async (_name, email) => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    await expectError(await start(merchant.testKey, idOf(session), { customer_email: email }), 400, 'invalid_email', 'customer_email');
  });
});

describe('400 invalid_country: country is not two letters', () => {
  it.each([
    ['one letter', 'd'],
    ['three letters', 'DEU'],
    ['two digits', '12'],
    ['a letter and a digit', 'D1'],
    ['an empty string', ''],
    ['letters with a blank', 'D '],
    ['non-ASCII letters', 'ÄÖ'],
    ['a number', 49],
    ['a boolean', false],
    ['an array', ['DE']],
  ])('refuses %s with field country, and starts nothing', async (_name, country) => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    await expectError(await start(merchant.testKey, idOf(session), { country }), 400, 'invalid_country', 'country');
    await expectUnstarted(merchant.testKey, idOf(session));
  });
});

describe('404 not_found: not a session of the caller in this mode', () => {
  it('refuses a session of another account, with either of its keys', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    await expectError(await start(other.testKey, idOf(session)), 404, 'not_found');
    await expectError(await start(other.liveKey, idOf(session)), 404, 'not_found');
    await expectUnstarted(merchant.testKey, idOf(session));
  });

  it('refuses a session of the other mode of the same account', async () => {
    const [test, live] = await Promise.all([
      createSession(platform, merchant.testKey, WITH_EMAIL),
      createSession(platform, merchant.liveKey, WITH_EMAIL),
    ]);
    await expectError(await start(merchant.liveKey, idOf(test)), 404, 'not_found');
    await expectError(await start(merchant.testKey, idOf(live)), 404, 'not_found');
    await expectUnstarted(merchant.testKey, idOf(test));
    await expectUnstarted(merchant.liveKey, idOf(live));
  });

  it.each([
    ['a well-formed id never issued', UNKNOWN_ID],
    ['garbage', 'garbage'],
    ['another prefix', 'cus_01ARZ3NDEKTSV4RRFFQ69G5FAV'],
  ])('refuses %s', async (_name, id) => {
    await expectError(await start(merchant.testKey, id, { customer_email: 'buyer@example.com' }), 404, 'not_found');
  });
});

describe('409 no_providers: no provider can take the payment; nothing is started', () => {
  it.each(['KP', 'kp', 'IR', 'CU'])('refuses country %s, leaving started_at null', async (country) => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    await expectError(await start(merchant.testKey, idOf(session), { country }), 409, 'no_providers');
    await expectUnstarted(merchant.testKey, idOf(session));
  });

  it('lets the session start afterwards from a country providers serve', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    await expectError(await start(merchant.testKey, idOf(session), { country: 'KP' }), 409, 'no_providers');
    platform.clock.advance(2_000);
    const result = await started(merchant.testKey, idOf(session), { country: 'US' });
    expect(result['started_at']).toBe(nowSeconds());
  });

  it('does not let a refused start replace the saved email', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    await expectError(
      await start(merchant.testKey, idOf(session), { country: 'KP', customer_email: 'x@example.com' }),
      409,
      'no_providers',
    );
    expect((await read(merchant.testKey, idOf(session)))['customer_email']).toBe('buyer@example.com');
  });
});

describe('409 unavailable: the account cannot take payments now', () => {
  it('refuses a Live start when the account has no payout wallet any more, and starts nothing', async () => {
    const shop = await platform.merchant();
    const session = await createSession(platform, shop.liveKey, WITH_EMAIL);
    await platform.operations.setPayoutWallet(shop.accountId, null);
    await expectError(await start(shop.liveKey, idOf(session)), 409, 'unavailable');
    await expectUnstarted(shop.liveKey, idOf(session));
  });

  it('still starts Test sessions of an account without payout wallet', async () => {
    const shop = await platform.merchant({ payoutWallet: null });
    const session = await createSession(platform, shop.testKey, WITH_EMAIL);
    const result = await started(shop.testKey, idOf(session));
    expect(result).toMatchObject({ livemode: false, started_at: nowSeconds() });
  });
});

describe('409 already_paid, held, failed: the payment has finished', () => {
  it.each([
    ['paid', 'already_paid'],
    ['underpaid', 'held'],
    ['failed', 'failed'],
  ])('refuses a start after simulate %s with %s, keeping the payment as it was', async (outcome, code) => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    await started(merchant.testKey, idOf(session));
    const simulated = await simulate(merchant.testKey, idOf(session), outcome);
    expect(simulated.status).toBe(200);
    const finished = await bodyOf(simulated);
    platform.clock.advance(1_000);
    await expectError(await start(merchant.testKey, idOf(session), { customer_email: 'other@example.com' }), 409, code);
    expect(await payment(merchant.testKey, idOf(session))).toEqual(finished);
  });
});

describe('415 and invalid_json: the body must be a JSON object', () => {
  it('refuses a body that is not application/json with 415 unsupported_media_type', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    await expectError(await start(merchant.testKey, idOf(session), '{}', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    await expectUnstarted(merchant.testKey, idOf(session));
  });

  it('refuses a start without any body with 415 unsupported_media_type (no Content-Type)', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    const response = await platform.request('POST', `/v1/checkout_sessions/${idOf(session)}/start`, { key: merchant.testKey });
    await expectError(response, 415, 'unsupported_media_type');
  });

  it.each([
    ['truncated JSON', '{"country": "DE"'],
    ['an empty body', ''],
    ['an array', '[]'],
    ['a string', '"DE"'],
    ['null', 'null'],
  ])('refuses %s with 400 invalid_json', async (_name, text) => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    await expectError(await start(merchant.testKey, idOf(session), text), 400, 'invalid_json');
    await expectUnstarted(merchant.testKey, idOf(session));
  });

  it('ignores unknown fields', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    expect((await started(merchant.testKey, idOf(session), { country: 'US', coupon: 'FREE' }))['country']).toBe('US');
  });
});

// These move the clock past every earlier session's expiry, so they come last.
describe('410 expired: the session can no longer be paid', () => {
  it('starts until just before expires_at and refuses from expires_at on', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    platform.clock.advance(DAY_MS - 1);
    await started(merchant.testKey, idOf(session));
    platform.clock.advance(1);
    await expectError(await start(merchant.testKey, idOf(session)), 410, 'expired');
    expect((await read(merchant.testKey, idOf(session)))['status']).toBe('expired');
  });

  it('refuses an unstarted session 24 hours after creation, leaving started_at null', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    platform.clock.advance(DAY_MS);
    await expectError(await start(merchant.testKey, idOf(session), { country: 'US' }), 410, 'expired');
    expect(await read(merchant.testKey, idOf(session))).toMatchObject({ status: 'expired', started_at: null });
  });

  it('refuses a session that a read has already marked expired', async () => {
    const session = await createSession(platform, merchant.testKey, WITH_EMAIL);
    platform.clock.advance(DAY_MS + 60_000);
    expect((await read(merchant.testKey, idOf(session)))['status']).toBe('expired');
    await expectError(await start(merchant.testKey, idOf(session)), 410, 'expired');
  });
});
