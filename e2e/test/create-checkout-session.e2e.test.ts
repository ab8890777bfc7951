// Risk covered: POST /v1/checkout_sessions accepts what the spec refuses, refuses what it accepts, stores values un-normalized, or names the wrong error code or field.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bodyOf, create, createSession, expectError, retrieve, VALID_BODY, type Json } from './e2e-helpers.ts';
import { PUBLIC_BASE_URL, startPlatform, WALLET, type Platform, type TestMerchant } from './platform-harness.ts';
import { unixSeconds } from '@hc/conversions';

let platform: Platform;
let merchant: TestMerchant;

beforeAll(async () => {
  platform = await startPlatform();
  merchant = await platform.merchant();
});
afterAll(async () => {
  await platform.stop();
});

const withField = (field: string, value: unknown): Json => ({ ...VALID_BODY, [field]: value });
const without = (field: string): Json => Object.fromEntries(Object.entries(VALID_BODY).filter(([name]) => name !== field));
/** `count` metadata entries k00, k01, … with value "v". */
const metadataOf = (count: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${String(i).padStart(2, '0')}`, 'v']));
/** An https URL of exactly `length` characters. */
const urlOfLength = (length: number): string => {
  const base = 'https://shop.example/thanks/';
  return base + 'a'.repeat(length - base.length);
};

describe('a created session', () => {
  it('is 201 with an open session: pay_ id, hosted url, created now in Unix seconds, started_at null, expires_at 24 hours after created', async () => {
    const response = await create(platform, merchant.testKey, VALID_BODY);
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const session = await bodyOf(response);
    const id = String(session['id']);
    expect(id).toMatch(/^pay_[0-9A-Za-z]+$/);
    expect(session).toMatchObject({
      object: 'checkout_session',
      status: 'open',
      started_at: null,
      livemode: false,
      url: `${PUBLIC_BASE_URL}/pay/${id}`,
    });
    // The checkout service's clock stands still in tests: created is its time, in Unix seconds.
    expect(session['created']).toBe(unixSeconds(platform.clock.now()));
    expect(session['expires_at']).toBe(Number(session['created']) + 86_400);
  });

  it('gets a new id on every create, also for identical bodies (no Idempotency-Key)', async () => {
    const [first, second] = await Promise.all([createSession(platform, merchant.testKey), createSession(platform, merchant.testKey)]);
    expect(first['id']).not.toBe(second['id']);
  });

  it('returns reference, customer_email and metadata as null when they are not sent', async () => {
    expect(await createSession(platform, merchant.testKey)).toMatchObject({ reference: null, customer_email: null, metadata: null });
  });

  it('accepts null for every optional field', async () => {
    const session = await createSession(platform, merchant.testKey, {
      ...VALID_BODY,
      reference: null,
      customer_email: null,
      metadata: null,
      success_url: null,
      cancel_url: null,
    });
    expect(session).toMatchObject({ reference: null, customer_email: null, metadata: null });
  });

  it('ignores unknown request fields', async () => {
    const session = await createSession(platform, merchant.testKey, {
      ...VALID_BODY,
      colour: 'blue',
      nested: { deep: [1, 2, 3] },
      id: 'pay_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      status: 'paid',
      object: 'payment',
      started_at: 1,
    });
    expect(session).not.toHaveProperty('colour');
    expect(session).not.toHaveProperty('nested');
    expect(session['id']).not.toBe('pay_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(session).toMatchObject({ status: 'open', object: 'checkout_session', started_at: null });
  });
});

describe('amount: a decimal string from 1.00 to 100000.00 with at most two decimals', () => {
  it.each([
    ['25', '25.00'],
    ['19.9', '19.90'],
    ['19.99', '19.99'],
    ['1', '1.00'],
    ['1.00', '1.00'],
    ['1.0', '1.00'],
    ['100000', '100000.00'],
    ['100000.00', '100000.00'],
    ['99999.99', '99999.99'],
  ])('accepts %j and returns it with two decimals as %j', async (amount, normalized) => {
    expect(await createSession(platform, merchant.testKey, withField('amount', amount))).toMatchObject({ amount: normalized });
  });

  it.each([
    ['a JSON number', 25],
    ['a JSON number with decimals', 19.99],
    ['null', null],
    ['a boolean', true],
    ['an object', { value: '25.00' }],
    ['an exponent', '1e3'],
    ['an upper-case exponent', '2.5E2'],
    ['a negative value', '-5.00'],
    ['a negative whole value', '-5'],
    ['three decimals', '1.005'],
    ['three decimals of zeros', '10.000'],
    ['below 1.00', '0.99'],
    ['zero', '0'],
    ['zero with decimals', '0.00'],
    ['above 100000.00', '100000.01'],
    ['far above the maximum', '1000000'],
    ['an empty string', ''],
    ['surrounding spaces', ' 25.00 '],
    ['a thousands separator', '1,000.00'],
    ['a comma decimal', '25,00'],
    ['a currency sign', '$25.00'],
    ['hexadecimal', '0x10'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['a trailing dot', '25.'],
    ['a leading dot', '.50'],
  ])('refuses %s with 400 invalid_amount on field amount', async (_name, amount) => {
    await expectError(await create(platform, merchant.testKey, withField('amount', amount)), 400, 'invalid_amount', 'amount');
  });

  it('refuses a missing amount with 400 invalid_amount on field amount', async () => {
    await expectError(await create(platform, merchant.testKey, without('amount')), 400, 'invalid_amount', 'amount');
  });
});

describe('currency: USD, EUR, GBP, CAD, AUD in any letter case, returned upper case', () => {
  it.each([
    ['usd', 'USD'],
    ['Eur', 'EUR'],
    ['gBp', 'GBP'],
    ['cad', 'CAD'],
    ['AUD', 'AUD'],
  ])('accepts %j as %j', async (currency, upper) => {
    expect(await createSession(platform, merchant.testKey, withField('currency', currency))).toMatchObject({ currency: upper });
  });

  it.each([
    ['an unknown currency', 'JPY'],
    ['a currency symbol', '$'],
    ['two letters', 'US'],
    ['surrounding spaces', ' USD '],
    ['an empty string', ''],
    ['a number', 840],
    ['null', null],
  ])('refuses %s with 400 invalid_currency on field currency', async (_name, currency) => {
    await expectError(await create(platform, merchant.testKey, withField('currency', currency)), 400, 'invalid_currency', 'currency');
  });

  it('refuses a missing currency with 400 invalid_currency on field currency', async () => {
    await expectError(await create(platform, merchant.testKey, without('currency')), 400, 'invalid_currency', 'currency');
  });
});

describe('description: required, up to 120 characters', () => {
  it('accepts 120 characters and returns them unchanged', async () => {
    const description = 'd'.repeat(120);
    expect(await createSession(platform, merchant.testKey, withField('description', description))).toMatchObject({ description });
  });

  it('counts characters, not bytes: accepts 120 accented characters', async () => {
    const description = 'é'.repeat(120);
    expect(await createSession(platform, merchant.testKey, withField('description', description))).toMatchObject({ description });
  });

  it.each([
    ['121 characters', 'd'.repeat(121)],
    ['121 accented characters', 'é'.repeat(121)],
    ['a number', 42],
    ['null', null],
  ])('refuses %s with 400 invalid_description on field description', async (_name, description) => {
    await expectError(
      await create(platform, merchant.testKey, withField('description', description)),
      400,
      'invalid_description',
      'description',
    );
  });

  it('refuses a missing description with 400 invalid_description on field description', async () => {
    await expectError(await create(platform, merchant.testKey, without('description')), 400, 'invalid_description', 'description');
  });

  it('reports the first missing field in the documented order (amount, currency, description)', async () => {
    await expectError(await create(platform, merchant.testKey, {}), 400, 'invalid_amount', 'amount');
    await expectError(await create(platform, merchant.testKey, { description: 'x' }), 400, 'invalid_amount', 'amount');
    await expectError(await create(platform, merchant.testKey, { amount: '5', description: 'x' }), 400, 'invalid_currency', 'currency');
  });
});

describe('reference: optional, null or up to 120 characters, not unique', () => {
  it('accepts 120 characters and returns them unchanged', async () => {
    const reference = 'r'.repeat(120);
    expect(await createSession(platform, merchant.testKey, withField('reference', reference))).toMatchObject({ reference });
  });

  it('accepts the same reference twice (not unique)', async () => {
    const [first, second] = [
      await createSession(platform, merchant.testKey, withField('reference', 'order-1001')),
      await createSession(platform, merchant.testKey, withField('reference', 'order-1001')),
    ];
    expect(first['id']).not.toBe(second['id']);
    expect(second['reference']).toBe('order-1001');
  });

  it.each([
    ['121 characters', 'r'.repeat(121)],
    ['a number', 1001],
    ['an object', { id: '1001' }],
  ])('refuses %s with 400 invalid_reference on field reference', async (_name, reference) => {
    await expectError(await create(platform, merchant.testKey, withField('reference', reference)), 400, 'invalid_reference', 'reference');
  });
});

describe('customer_email: optional, stored lowercased', () => {
  it('returns the email lowercased', async () => {
    expect(await createSession(platform, merchant.testKey, withField('customer_email', 'Jane.Doe@Example.COM'))).toMatchObject({
      customer_email: 'jane.doe@example.com',
    });
  });

  it.each([
    ['no @', 'jane.example.com'],
    ['nothing before @', '@example.com'],
    ['no domain', 'jane@'],
    ['two @', 'jane@doe@example.com'],
    ['a space', 'jane doe@example.com'],
    ['a domain literal (issue 47 item 7)', 'jane@[127.0.0.1]'],
    ['a stray > (issue 47 item 7)', 'jane>@example.com'],
    ['a display name in angle brackets (issue 47 item 7)', 'Jane <jane@example.com>'],
    ['an empty string', ''],
    ['a number', 42],
  ])('refuses a malformed email (%s) with 400 invalid_email on field customer_email', async (_name, email) => {
    await expectError(await create(platform, merchant.testKey, withField('customer_email', email)), 400, 'invalid_email', 'customer_email');
  });
});

describe('metadata: up to 20 keys of 1 to 40 characters not starting "__", string values up to 500 characters', () => {
  it('accepts 20 keys and returns them unchanged', async () => {
    const metadata = metadataOf(20);
    expect((await createSession(platform, merchant.testKey, withField('metadata', metadata)))['metadata']).toEqual(metadata);
  });

  it('returns keys and values unchanged, including case, spaces, unicode and empty values', async () => {
    const metadata = {
      'Order ID': ' 1001 ',
      b: 'é😀',
      _single: 'underscore ok',
      empty: '',
      [`k${'x'.repeat(39)}`]: 'v'.repeat(500),
      'a.b': '{"json":true}',
      constructor: 'c',
      toString: 't',
    };
    const session = await createSession(platform, merchant.testKey, withField('metadata', metadata));
    expect(session['metadata']).toEqual(metadata);
    expect((await bodyOf(await retrieve(platform, merchant.testKey, String(session['id']))))['metadata']).toEqual(metadata);
  });

  it('returns an empty object unchanged', async () => {
    expect((await createSession(platform, merchant.testKey, withField('metadata', {})))['metadata']).toEqual({});
  });

  it.each([
    ['21 keys', metadataOf(21)],
    ['a key of 41 characters', { [`k${'x'.repeat(40)}`]: 'v' }],
    ['an empty key', { '': 'v' }],
    ['a key starting "__"', { __internal: 'v' }],
    ['the key "__"', { __: 'v' }],
    ['the key "__proto__"', JSON.parse('{"__proto__": "v"}') as unknown],
    ['a value of 501 characters', { note: 'v'.repeat(501) }],
    ['a number value', { count: 3 }],
    ['a boolean value', { gift: true }],
    ['a null value', { note: null }],
    ['an object value', { nested: { a: 'b' } }],
    ['an array value', { tags: ['a', 'b'] }],
    ['an array', ['a', 'b']],
    ['a string', 'order=1001'],
    ['a number', 7],
  ])('refuses %s with 400 invalid_metadata on field metadata', async (_name, metadata) => {
    await expectError(await create(platform, merchant.testKey, withField('metadata', metadata)), 400, 'invalid_metadata', 'metadata');
  });
});

describe('success_url and cancel_url: full http(s) address, https only in Live, no credentials, up to 1000 characters', () => {
  describe.each(['success_url', 'cancel_url'])('%s', (field) => {
    it.each([
      'https://shop.example/thanks',
      'http://shop.example/thanks',
      'http://localhost:3000/thanks?order=1',
      'https://shop.example/thanks?payment={PAYMENT_ID}&ref={REFERENCE}',
      'https://shop.example/orders/{REFERENCE}/paid',
    ])('accepts %j in Test mode', async (url) => {
      await createSession(platform, merchant.testKey, withField(field, url));
    });

    it('accepts 1000 characters', async () => {
      const url = urlOfLength(1000);
      expect(url).toHaveLength(1000);
      await createSession(platform, merchant.testKey, withField(field, url));
    });

    it('accepts https in Live mode', async () => {
      expect(await createSession(platform, merchant.liveKey, withField(field, 'https://shop.example/thanks'))).toMatchObject({
        livemode: true,
      });
    });

    it('refuses http in Live mode', async () => {
      await expectError(
        await create(platform, merchant.liveKey, withField(field, 'http://shop.example/thanks')),
        400,
        'invalid_url',
        field,
      );
    });

    it.each([
      ['1001 characters', urlOfLength(1001)],
      ['a username and password', 'https://user:secret@shop.example/thanks'],
      ['a username', 'https://user@shop.example/thanks'],
      ['an ftp URL', 'ftp://shop.example/thanks'],
      ['a javascript: URL', 'javascript:alert(1)'],
      ['a data: URL', 'data:text/html,<p>hi</p>'],
      ['a mailto: URL', 'mailto:shop@shop.example'],
      ['a file: URL', 'file:///etc/passwd'],
      ['a relative path', '/thanks'],
      ['a bare word', 'thanks'],
      ['a scheme-relative URL', '//shop.example/thanks'],
      ['a scheme without slashes', 'https:shop.example/thanks'],
      ['a scheme without a host', 'https://'],
      ['an empty string', ''],
      ['a number', 42],
    ])('refuses %s with 400 invalid_url on the field', async (_name, url) => {
      await expectError(await create(platform, merchant.testKey, withField(field, url)), 400, 'invalid_url', field);
    });

    it('refuses credentials in Live mode too', async () => {
      await expectError(
        await create(platform, merchant.liveKey, withField(field, 'https://user:secret@shop.example/thanks')),
        400,
        'invalid_url',
        field,
      );
    });
  });
});

describe('Live mode needs a payout wallet', () => {
  it('refuses a Live create without a payout wallet with 409 no_payout_wallet, while Test creates work', async () => {
    const shop = await platform.merchant({ payoutWallet: null });
    await expectError(await create(platform, shop.liveKey, VALID_BODY), 409, 'no_payout_wallet');
    expect(await createSession(platform, shop.testKey)).toMatchObject({ livemode: false });
  });

  it('accepts Live creates from the next request once a wallet is set, and refuses them again once it is removed', async () => {
    const shop = await platform.merchant({ payoutWallet: null });
    await platform.operations.setPayoutWallet(shop.accountId, WALLET);
    expect(await createSession(platform, shop.liveKey)).toMatchObject({ livemode: true });
    await platform.operations.setPayoutWallet(shop.accountId, null);
    await expectError(await create(platform, shop.liveKey, VALID_BODY), 409, 'no_payout_wallet');
  });
});
