// Risk covered: the optional `customer` object on create accepting nonsense, refusing valid input,
// reporting the wrong code or field, or changing the session object's shape (it is additive).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { create, createSession, expectError, SESSION_FIELDS, VALID_BODY, type Json } from './e2e-helpers.ts';
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

const withCustomer = (customer: unknown, extra: Json = {}): Json => ({ ...VALID_BODY, ...extra, customer });

const FULL_CUSTOMER: Json = {
  email: 'Ada@Example.com',
  name: 'Ada Lovelace',
  phone: '+44 20 7946 0000',
  shipping_address: {
    name: 'Ada Lovelace',
    line1: '12 St James Square',
    line2: null,
    city: 'London',
    region: null,
    postal_code: 'SW1Y 4JH',
    country: 'gb',
  },
  billing_address: { line1: '1 Main St', city: 'Boston', region: 'MA', postal_code: '02101', country: 'US' },
  store_account: { platform: 'shopify', store_id: 'shop-42', store_name: 'Ada Shop', customer_id: '8812' },
};

describe('a create with a customer object', () => {
  it('is accepted in full; customer.email becomes the session customer_email, lowercased, and the session shape is unchanged', async () => {
    const session = await createSession(platform, merchant.testKey, withCustomer(FULL_CUSTOMER));
    expect(Object.keys(session).sort()).toEqual([...SESSION_FIELDS].sort());
    expect(session['customer_email']).toBe('ada@example.com');
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['an empty object', {}],
    ['only a name', { name: 'Grace' }],
    ['null details', { email: null, name: null, phone: null, shipping_address: null, billing_address: null, store_account: null }],
    ['unknown keys (ignored)', { nickname: 'G', shipping_address: { line1: 'x', floor: '3' } }],
  ])('accepts %s', async (_, customer) => {
    const session = await createSession(platform, merchant.testKey, withCustomer(customer));
    expect(session['customer_email']).toBeNull();
  });

  it('accepts customer_email and customer.email together when they are the same address in any case', async () => {
    const session = await createSession(
      platform,
      merchant.testKey,
      withCustomer({ email: 'GRACE@example.com' }, { customer_email: 'grace@EXAMPLE.com' }),
    );
    expect(session['customer_email']).toBe('grace@example.com');
  });
});

describe('a create with a bad customer object', () => {
  it.each<[string, unknown, string, string]>([
    ['a string', 'ada@example.com', 'invalid_customer', 'customer'],
    ['an array', [], 'invalid_customer', 'customer'],
    ['a numeric email', { email: 42 }, 'invalid_email', 'customer.email'],
    ['a malformed email', { email: 'ada-at-example' }, 'invalid_email', 'customer.email'],
    ['a numeric name', { name: 7 }, 'invalid_customer', 'customer.name'],
    ['a blank name', { name: ' ' }, 'invalid_customer', 'customer.name'],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'invalid_customer', 'customer.name'],
    ['a phone with letters', { phone: 'ask at the desk' }, 'invalid_customer', 'customer.phone'],
    ['an address that is a string', { shipping_address: '12 St James Square' }, 'invalid_customer', 'customer.shipping_address'],
    [
      'an address field that is a number',
      { billing_address: { postal_code: 2101 } },
      'invalid_customer',
      'customer.billing_address.postal_code',
    ],
    ['an empty address', { billing_address: {} }, 'invalid_customer', 'customer.billing_address'],
    ['a three-letter country', { shipping_address: { country: 'GBR' } }, 'invalid_customer', 'customer.shipping_address.country'],
    ['a store account without store_id', { store_account: { platform: 'shopify' } }, 'invalid_customer', 'customer.store_account.store_id'],
    ['a store account without platform', { store_account: { store_id: 's1' } }, 'invalid_customer', 'customer.store_account.platform'],
    ['a store account that is a list', { store_account: [] }, 'invalid_customer', 'customer.store_account'],
  ])('refuses %s', async (_, customer, code, field) => {
    await expectError(await create(platform, merchant.testKey, withCustomer(customer)), 400, code, field);
  });

  it('refuses customer_email and customer.email that differ, naming customer.email', async () => {
    const body = withCustomer({ email: 'grace@example.com' }, { customer_email: 'ada@example.com' });
    await expectError(await create(platform, merchant.testKey, body), 400, 'invalid_email', 'customer.email');
  });

  it('reports the session fields first: a bad amount wins over a bad customer name', async () => {
    await expectError(
      await create(platform, merchant.testKey, withCustomer({ name: ' ' }, { amount: 'ten' })),
      400,
      'invalid_amount',
      'amount',
    );
  });

  it('makes no session when refused', async () => {
    const before = await (await platform.request('GET', '/v1/payments?limit=100', { key: merchant.testKey })).json();
    await create(platform, merchant.testKey, withCustomer({ phone: 'no' }));
    const after = await (await platform.request('GET', '/v1/payments?limit=100', { key: merchant.testKey })).json();
    expect(after).toEqual(before);
  });
});
