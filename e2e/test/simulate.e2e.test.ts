// Risk covered: POST /v1/payments/:id/simulate settles the wrong amounts (USD value, ~97% arrival, fee, six decimals), lets a payment end twice or differently under concurrency, simulates what it must refuse (Live, unstarted, foreign), or loses a late payment after expiry.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bodyOf, createSession, expectError, VALID_BODY, type Json } from './e2e-helpers.ts';
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
const DAY_MS = 24 * 60 * 60 * 1000;
const UNKNOWN_ID = 'pay_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const TXID = /^0x[0-9a-f]{64}$/;
/** The demo platform's figures: DEFAULT_FEE_BPS and the default FX_RATES_USD (USD per unit). */
const FEE_BPS = 150n;
const USD_RATES: Readonly<Record<string, string>> = { USD: '1', EUR: '1.08', GBP: '1.27', CAD: '0.73', AUD: '0.66' };

// Exact decimal arithmetic on BigInt: a value is an integer count of 10^-scale units.
function units(decimal: string, scale: number): bigint {
  const [whole = '0', fraction = ''] = decimal.split('.');
  expect(fraction.length).toBeLessThanOrEqual(scale);
  return BigInt(whole + fraction.padEnd(scale, '0'));
}
function format(value: bigint, scale: number): string {
  const digits = value.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/**
 * What the sandbox settles for a paid or underpaid Test payment: the order's USD value (amount × rate,
 * half-up to cents), 97% or 50% of it arriving in USD coin (six decimals), and after the fee the merchant's
 * share rounded down to six decimals.
 */
function expectedSettlement(amount: string, currency: string, share: '0.97' | '0.5'): { valueCoin: string; merchantReceived: string } {
  const rate = USD_RATES[currency] ?? '';
  const usdCents = (units(amount, 2) * units(rate, 10) + 5n * 10n ** 9n) / 10n ** 10n; // half-up to cents
  const valueMicro = (usdCents * units(share, 2) * 10n ** 6n) / 10n ** 4n; // cents × share: exact at six decimals
  const receivedMicro = (valueMicro * (10_000n - FEE_BPS)) / 10_000n; // rounded down
  return { valueCoin: format(valueMicro, 6), merchantReceived: format(receivedMicro, 6) };
}

const idOf = (object: Json): string => String(object['id']);
const nowSeconds = (): number => unixSeconds(platform.clock.now());
const settlementOf = (object: Json): Json => object['settlement'] as Json;

function simulate(key: string, id: string, body: unknown, headers?: Record<string, string>): Promise<Response> {
  return platform.request('POST', `/v1/payments/${id}/simulate`, { key, body, ...(headers ? { headers } : {}) });
}

/** A simulate that must answer 200; returns the payment. */
async function simulated(key: string, id: string, outcome: string): Promise<Json> {
  const response = await simulate(key, id, { outcome });
  const body = await bodyOf(response);
  expect({ status: response.status, body }).toEqual({ status: 200, body: expect.objectContaining({ id, object: 'payment' }) });
  return body;
}

async function payment(key: string, id: string): Promise<Json> {
  const response = await platform.request('GET', `/v1/payments/${id}`, { key });
  expect(response.status).toBe(200);
  return bodyOf(response);
}

async function start(key: string, id: string): Promise<void> {
  const response = await platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key, body: {} });
  expect(response.status).toBe(200);
}

/** A created and started session of `key`; returns its id. */
async function startedPayment(key: string = merchant.testKey, body: Json = WITH_EMAIL): Promise<string> {
  const id = idOf(await createSession(platform, key, body));
  await start(key, id);
  return id;
}

describe('the expected figures (checked against the spec’s own example)', () => {
  it('are 9.700000 arriving and 9.554500 received for 10.00 USD at 150 bps', () => {
    expect(expectedSettlement('10.00', 'USD', '0.97')).toEqual({ valueCoin: '9.700000', merchantReceived: '9.554500' });
    expect(expectedSettlement('10.00', 'EUR', '0.97')).toEqual({ valueCoin: '10.476000', merchantReceived: '10.318860' });
  });
});

describe('simulate paid: about 97% of the USD value arrives and the payment is paid', () => {
  it.each([
    ['10.00', 'USD'],
    ['10.00', 'EUR'],
    ['12.34', 'EUR'],
    ['10.05', 'EUR'],
    ['7.99', 'GBP'],
    ['20.55', 'CAD'],
    ['1.25', 'AUD'],
    ['33.33', 'USD'],
    ['19999.99', 'USD'],
  ])('%s %s: paid, paid_at set, polygon_usdc with value_coin and merchant_received to six decimals', async (amount, currency) => {
    const id = await startedPayment(merchant.testKey, { ...WITH_EMAIL, amount, currency });
    const result = await simulated(merchant.testKey, id, 'paid');
    const { valueCoin, merchantReceived } = expectedSettlement(amount, currency, '0.97');
    expect(result).toMatchObject({
      status: 'paid',
      amount,
      currency,
      paid_at: nowSeconds(),
      hold_reason: null,
      hold_acceptable: false,
      settlement: {
        coin: 'polygon_usdc',
        value_coin: valueCoin,
        merchant_received: merchantReceived,
        txid_in: expect.stringMatching(TXID),
        txid_out: expect.stringMatching(TXID),
        payout_wallet: WALLET,
      },
    });
    expect(settlementOf(result)['txid_in']).not.toBe(settlementOf(result)['txid_out']);
    expect(await payment(merchant.testKey, id)).toEqual(result);
  });

  it('settles to the wallet fixed at start, not one the merchant set afterwards', async () => {
    const shop = await platform.merchant();
    const id = await startedPayment(shop.testKey);
    await platform.operations.setPayoutWallet(shop.accountId, '0x4444444444444444444444444444444444444444');
    const result = await simulated(shop.testKey, id, 'paid');
    expect(result).toMatchObject({ status: 'paid', settlement: { payout_wallet: WALLET } });
  });

  it('uses the account’s fee locked at start', async () => {
    const account = await platform.operations.createAccount({ name: 'Zero fee shop', payoutWallet: WALLET, feeBps: 0 });
    const { secret } = await platform.operations.createKey(account.id, 'test');
    const id = await startedPayment(secret, { ...WITH_EMAIL, amount: '10.00', currency: 'USD' });
    expect(settlementOf(await simulated(secret, id, 'paid'))).toMatchObject({ value_coin: '9.700000', merchant_received: '9.700000' });
  });
});

describe('simulate underpaid: half the value arrives and the payment is held', () => {
  it.each([
    ['10.00', 'USD'],
    ['12.34', 'EUR'],
    ['1.01', 'CAD'],
  ])('%s %s: held, hold_reason in words, hold_acceptable true, merchant_received null', async (amount, currency) => {
    const id = await startedPayment(merchant.testKey, { ...WITH_EMAIL, amount, currency });
    const result = await simulated(merchant.testKey, id, 'underpaid');
    expect(result).toMatchObject({
      status: 'held',
      paid_at: null,
      hold_reason: expect.stringMatching(/\S/),
      hold_acceptable: true,
      settlement: {
        coin: 'polygon_usdc',
        value_coin: expectedSettlement(amount, currency, '0.5').valueCoin,
        merchant_received: null,
        txid_in: expect.stringMatching(TXID),
        payout_wallet: WALLET,
      },
    });
    expect(await payment(merchant.testKey, id)).toEqual(result);
  });
});

describe('simulate failed: the payment is declined', () => {
  it('is failed, with nothing paid and nothing moved', async () => {
    const id = await startedPayment();
    const result = await simulated(merchant.testKey, id, 'failed');
    expect(result).toMatchObject({
      status: 'failed',
      paid_at: null,
      hold_reason: null,
      hold_acceptable: false,
      settlement: { coin: null, value_coin: null, merchant_received: null, txid_in: null, txid_out: null, payout_wallet: WALLET },
    });
    expect(await payment(merchant.testKey, id)).toEqual(result);
  });
});

describe('a payment ends only once: simulating a finished payment returns it unchanged', () => {
  it.each(['paid', 'underpaid', 'failed'])(
    'after %s, every outcome answers the same payment (same paid_at, same txid_in)',
    async (first) => {
      const id = await startedPayment();
      const finished = await simulated(merchant.testKey, id, first);
      platform.clock.advance(3_000);
      for (const outcome of ['paid', 'underpaid', 'failed']) {
        expect(await simulated(merchant.testKey, id, outcome)).toEqual(finished);
      }
      expect(await payment(merchant.testKey, id)).toEqual(finished);
    },
  );

  it('gives two concurrent simulates of different outcomes one final outcome, shown by both answers', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, () => startedPayment()));
    await Promise.all(
      ids.map(async (id) => {
        const [paid, failed] = await Promise.all([simulated(merchant.testKey, id, 'paid'), simulated(merchant.testKey, id, 'failed')]);
        expect(['paid', 'failed']).toContain(paid['status']);
        expect(failed).toEqual(paid);
        expect(await payment(merchant.testKey, id)).toEqual(paid);
      }),
    );
  });

  it('gives two concurrent simulates of the same outcome the same payment (one arrival, one txid_in)', async () => {
    const id = await startedPayment();
    const [first, second] = await Promise.all([simulated(merchant.testKey, id, 'paid'), simulated(merchant.testKey, id, 'paid')]);
    expect(first['status']).toBe('paid');
    expect(second).toEqual(first);
  });
});

describe('400 invalid_outcome (field outcome): outcome missing or not one of the three', () => {
  it.each([
    ['missing', {}],
    ['null', { outcome: null }],
    ['unknown', { outcome: 'refunded' }],
    ['empty', { outcome: '' }],
    ['another letter case', { outcome: 'PAID' }],
    ['padded', { outcome: ' paid' }],
    ['a number', { outcome: 1 }],
    ['a boolean', { outcome: true }],
    ['an array', { outcome: ['paid'] }],
    ['an object', { outcome: { kind: 'paid' } }],
  ])('refuses an outcome that is %s, and changes nothing', async (_name, body) => {
    const id = await startedPayment();
    await expectError(await simulate(merchant.testKey, id, body), 400, 'invalid_outcome', 'outcome');
    expect(await payment(merchant.testKey, id)).toMatchObject({ status: 'open', paid_at: null });
  });

  // A name inherited from Object.prototype is not an outcome (it once passed a plain-object lookup).
  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'])(
    'refuses the name of an Object.prototype member (%s) as unknown',
    async (outcome) => {
      const id = await startedPayment();
      await expectError(await simulate(merchant.testKey, id, { outcome }), 400, 'invalid_outcome', 'outcome');
    },
  );

  it('leaves the payment unchanged after an outcome named like an Object.prototype member', async () => {
    const id = await startedPayment();
    for (const outcome of ['toString', 'constructor', '__proto__']) {
      expect((await simulate(merchant.testKey, id, { outcome })).status).not.toBe(200);
    }
    expect(await payment(merchant.testKey, id)).toMatchObject({ status: 'open', paid_at: null, settlement: { txid_in: null } });
    expect((await simulated(merchant.testKey, id, 'paid'))['status']).toBe('paid');
  });
});

describe('403 live_payment: simulate is Test mode only', () => {
  it('refuses a started Live payment with the live key, leaving it open', async () => {
    const id = await startedPayment(merchant.liveKey);
    for (const outcome of ['paid', 'underpaid', 'failed']) {
      await expectError(await simulate(merchant.liveKey, id, { outcome }), 403, 'live_payment');
    }
    expect(await payment(merchant.liveKey, id)).toMatchObject({ status: 'open', livemode: true, paid_at: null });
  });
});

describe('409 not_started: the session has not been started', () => {
  it('refuses an unstarted payment, which can then start and be simulated', async () => {
    const id = idOf(await createSession(platform, merchant.testKey, WITH_EMAIL));
    await expectError(await simulate(merchant.testKey, id, { outcome: 'paid' }), 409, 'not_started');
    expect(await payment(merchant.testKey, id)).toMatchObject({ status: 'open', started_at: null });
    await start(merchant.testKey, id);
    expect((await simulated(merchant.testKey, id, 'paid'))['status']).toBe('paid');
  });
});

describe('404 not_found: not a payment of the caller in this mode', () => {
  it('refuses another account’s payment, the other mode’s payment and an unknown id', async () => {
    const test = await startedPayment();
    const live = await startedPayment(merchant.liveKey);
    await expectError(await simulate(other.testKey, test, { outcome: 'paid' }), 404, 'not_found');
    await expectError(await simulate(merchant.liveKey, test, { outcome: 'paid' }), 404, 'not_found');
    await expectError(await simulate(merchant.testKey, live, { outcome: 'paid' }), 404, 'not_found');
    await expectError(await simulate(merchant.testKey, UNKNOWN_ID, { outcome: 'paid' }), 404, 'not_found');
    await expectError(await simulate(merchant.testKey, 'garbage', { outcome: 'paid' }), 404, 'not_found');
    expect(await payment(merchant.testKey, test)).toMatchObject({ status: 'open' });
  });
});

describe('the body must be a JSON object', () => {
  it('refuses a body that is not application/json with 415 and a non-object with 400 invalid_json', async () => {
    const id = await startedPayment();
    await expectError(
      await simulate(merchant.testKey, id, '{"outcome":"paid"}', { 'content-type': 'text/plain' }),
      415,
      'unsupported_media_type',
    );
    await expectError(await simulate(merchant.testKey, id, '{"outcome":'), 400, 'invalid_json');
    await expectError(await simulate(merchant.testKey, id, '["paid"]'), 400, 'invalid_json');
    expect(await payment(merchant.testKey, id)).toMatchObject({ status: 'open' });
  });
});

// Moves the clock past every earlier payment's expiry, so it comes last.
describe('a late payment', () => {
  it('is paid after the payment expired: started, expired on read, then simulate paid', async () => {
    const id = await startedPayment(merchant.testKey, { ...WITH_EMAIL, amount: '10.00', currency: 'USD' });
    platform.clock.advance(DAY_MS);
    expect(await payment(merchant.testKey, id)).toMatchObject({ status: 'expired', paid_at: null });
    platform.clock.advance(60_000);
    const result = await simulated(merchant.testKey, id, 'paid');
    expect(result).toMatchObject({
      status: 'paid',
      paid_at: nowSeconds(),
      settlement: { value_coin: '9.700000', merchant_received: '9.554500', payout_wallet: WALLET },
    });
    expect(await payment(merchant.testKey, id)).toEqual(result);
  });

  it('is held when half arrives after expiry', async () => {
    const id = await startedPayment();
    platform.clock.advance(DAY_MS);
    expect((await payment(merchant.testKey, id))['status']).toBe('expired');
    expect(await simulated(merchant.testKey, id, 'underpaid')).toMatchObject({ status: 'held', hold_acceptable: true });
  });

  it('answers not_started for an expired payment that was never started', async () => {
    const id = idOf(await createSession(platform, merchant.testKey, WITH_EMAIL));
    platform.clock.advance(DAY_MS);
    await expectError(await simulate(merchant.testKey, id, { outcome: 'paid' }), 409, 'not_started');
    expect((await payment(merchant.testKey, id))['status']).toBe('expired');
  });
});

describe('simulate expired (issue 29): the payment expires now', () => {
  it('expires a started Test payment (expires_at now), and a late paid then lands as paid', async () => {
    const id = await startedPayment();
    const expired = await simulated(merchant.testKey, id, 'expired');
    expect(expired).toMatchObject({ status: 'expired', paid_at: null });
    expect(Number(expired['expires_at'])).toBeLessThanOrEqual(nowSeconds());
    const late = await simulated(merchant.testKey, id, 'paid');
    expect(late).toMatchObject({ status: 'paid', paid_at: expect.any(Number) });
    // Once finished, expired changes nothing.
    expect((await simulated(merchant.testKey, id, 'expired'))['status']).toBe('paid');
  });

  it('expires an unstarted payment, which then cannot be paid (409 not_started)', async () => {
    const id = idOf(await createSession(platform, merchant.testKey, WITH_EMAIL));
    expect((await simulated(merchant.testKey, id, 'expired'))['status']).toBe('expired');
    await expectError(await simulate(merchant.testKey, id, { outcome: 'paid' }), 409, 'not_started');
  });

  it('refuses a Live payment (403 live_payment) and another account’s (404 not_found), changing nothing', async () => {
    const live = idOf(await createSession(platform, merchant.liveKey, WITH_EMAIL));
    await expectError(await simulate(merchant.liveKey, live, { outcome: 'expired' }), 403, 'live_payment');
    expect(await payment(merchant.liveKey, live)).toMatchObject({ status: 'open' });
    const id = await startedPayment();
    await expectError(await simulate(other.testKey, id, { outcome: 'expired' }), 404, 'not_found');
    expect(await payment(merchant.testKey, id)).toMatchObject({ status: 'open' });
  });
});

describe('issue 51: the only moves out of expired are a late delivery to paid or held', () => {
  it('refuses a decline after expiry with 409 already_expired, changing nothing; a late paid then lands', async () => {
    const id = await startedPayment();
    const expired = await simulated(merchant.testKey, id, 'expired');
    await expectError(await simulate(merchant.testKey, id, { outcome: 'failed' }), 409, 'already_expired');
    expect(await payment(merchant.testKey, id)).toEqual(expired);
    expect(await simulated(merchant.testKey, id, 'paid')).toMatchObject({ status: 'paid' });
  });

  it('holds money on a canceled payment link for review, never paid: started, canceled, then simulate paid', async () => {
    const created = await platform.request('POST', '/v1/payment_links', {
      key: merchant.testKey,
      body: { amount: '20.00', currency: 'USD', description: 'Invoice 9', customer_email: 'buyer@example.com' },
    });
    expect(created.status).toBe(201);
    const id = idOf(await bodyOf(created));
    await start(merchant.testKey, id);
    const canceled = await bodyOf(await platform.request('POST', `/v1/payment_links/${id}/cancel`, { key: merchant.testKey }));
    expect(canceled).toMatchObject({ status: 'expired', canceled_at: expect.any(Number) });
    await expectError(await simulate(merchant.testKey, id, { outcome: 'failed' }), 409, 'already_expired');
    const held = await simulated(merchant.testKey, id, 'paid');
    expect(held).toMatchObject({ status: 'held', hold_acceptable: true, paid_at: null, canceled_at: canceled['canceled_at'] });
    expect(String(held['hold_reason'])).toMatch(/^Money arrived after the payment link was canceled\./);
    expect(await payment(merchant.testKey, id)).toEqual(held);
  });
});
