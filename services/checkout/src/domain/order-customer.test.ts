import { describe, expect, it } from '@jest/globals';
import { ApiError } from '@hc/errors';
import { NO_CUSTOMER_DETAILS, orderCustomer, type RawOrderCustomer } from './order-customer.ts';

function failure(email: string | undefined, customer: RawOrderCustomer): { code: string; field: string | undefined } {
  try {
    orderCustomer(email, customer);
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, field: error.field };
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('the order customer email', () => {
  it('comes from customer_email or customer.email, lowercased', () => {
    expect(orderCustomer('Ada@Example.com', undefined)).toEqual({ email: 'ada@example.com', details: NO_CUSTOMER_DETAILS });
    expect(orderCustomer(undefined, { email: ' ADA@example.COM ' }).email).toBe('ada@example.com');
    expect(orderCustomer(undefined, {}).email).toBeNull();
  });

  it('accepts both when they agree in any case, and refuses them when they differ', () => {
    expect(orderCustomer('ada@example.com', { email: 'ADA@example.com' }).email).toBe('ada@example.com');
    expect(failure('ada@example.com', { email: 'grace@example.com' })).toEqual({ code: 'invalid_email', field: 'customer.email' });
  });

  it('refuses a malformed customer.email with its own field', () => {
    expect(failure(undefined, { email: 'not-an-email' })).toEqual({ code: 'invalid_email', field: 'customer.email' });
  });
});

describe('the order customer details', () => {
  it('keeps what was sent and leaves out nothing silently', () => {
    const { details } = orderCustomer(undefined, {
      name: 'Ada Lovelace',
      phone: '+44 20 7946 0000',
      shippingAddress: { line1: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', country: 'gb' },
      storeAccount: { platform: 'shopify', storeId: 'shop-42', customerId: '8812' },
    });
    expect(details).toEqual({
      name: 'Ada Lovelace',
      phone: '+44 20 7946 0000',
      shippingAddress: {
        name: null,
        line1: '12 St James Square',
        line2: null,
        city: 'London',
        region: null,
        postalCode: 'SW1Y 4JH',
        country: 'GB',
      },
      billingAddress: null,
      storeAccount: { platform: 'shopify', storeId: 'shop-42', storeName: null, customerId: '8812' },
    });
  });

  it.each<[string, RawOrderCustomer, string]>([
    ['a blank name', { name: '  ' }, 'customer.name'],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'customer.name'],
    ['a phone with letters', { phone: 'call me' }, 'customer.phone'],
    ['a phone over 40 characters', { phone: '1'.repeat(41) }, 'customer.phone'],
    ['an empty address', { billingAddress: {} }, 'customer.billing_address'],
    ['a three-letter country', { shippingAddress: { country: 'GBR' } }, 'customer.shipping_address.country'],
    ['an address line over 200 characters', { shippingAddress: { line1: 'x'.repeat(201) } }, 'customer.shipping_address.line1'],
    ['a store account without platform', { storeAccount: { storeId: 's1' } }, 'customer.store_account.platform'],
    ['a store account without store_id', { storeAccount: { platform: 'shopify' } }, 'customer.store_account.store_id'],
    ['an uppercase platform', { storeAccount: { platform: 'Shopify', storeId: 's1' } }, 'customer.store_account.platform'],
    [
      'a store name over 120 characters',
      { storeAccount: { platform: 'woo', storeId: 's1', storeName: 's'.repeat(121) } },
      'customer.store_account.store_name',
    ],
  ])('refuses %s', (_, customer, field) => {
    expect(failure(undefined, customer)).toEqual({ code: 'invalid_customer', field });
  });
});
