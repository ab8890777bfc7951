import { describe, expect, it } from '@jest/globals';
import type { Address, ContactDetails } from './customer.ts';
import { detailsFromOrders, mergeContactDetails, mergeStoreAccounts, normalizeEmail } from './details.ts';

const london: Address = { name: 'Ada', line1: '12 St James', line2: null, city: 'London', region: null, postalCode: 'SW1Y', country: 'GB' };
const paris: Address = { name: null, line1: '1 Rue', line2: null, city: 'Paris', region: null, postalCode: null, country: 'FR' };
const saved: ContactDetails = { name: 'Ada', phone: '+44 1', shippingAddress: london, billingAddress: london };

describe('rule 1: one customer per email, any letter case', () => {
  it('lowercases and trims', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });
});

describe("rule 3: an order's details replace the saved ones, left-out details keep them", () => {
  it('replaces every detail the order provides', () => {
    const order: ContactDetails = { name: 'Ada King', phone: '+44 2', shippingAddress: paris, billingAddress: paris };
    expect(mergeContactDetails(saved, order)).toEqual(order);
  });

  it('keeps each detail the order leaves out', () => {
    expect(mergeContactDetails(saved, { name: null, phone: '+44 9', shippingAddress: null, billingAddress: paris })).toEqual({
      name: 'Ada',
      phone: '+44 9',
      shippingAddress: london,
      billingAddress: paris,
    });
  });

  it('replaces an address whole rather than mixing two addresses', () => {
    expect(mergeContactDetails(saved, { ...saved, shippingAddress: paris }).shippingAddress).toEqual(paris);
  });
});

describe('store accounts', () => {
  const shop = { platform: 'shopify', storeId: 'shop-42', storeName: "Ada's Shop", customerId: '8812' };

  it('adds a new store', () => {
    expect(mergeStoreAccounts([], shop)).toEqual([shop]);
    expect(mergeStoreAccounts([shop], { ...shop, storeId: 'shop-43' })).toHaveLength(2);
  });

  it('replaces the values of the same platform and store, keeping left-out ones', () => {
    expect(mergeStoreAccounts([shop], { ...shop, storeName: 'Renamed', customerId: null })).toEqual([
      { ...shop, storeName: 'Renamed', customerId: '8812' },
    ]);
  });

  it('changes nothing without a store account', () => {
    expect(mergeStoreAccounts([shop], null)).toEqual([shop]);
  });
});

describe('detailsFromOrders', () => {
  const address = { name: null, line1: '1 Main St', line2: null, city: 'Springfield', region: null, postalCode: null, country: 'US' };
  it('applies the orders oldest first, later details replacing earlier ones', () => {
    const older = { name: 'Old', phone: '1', shippingAddress: address, billingAddress: null, storeAccount: null };
    const newer = {
      name: 'New',
      phone: null,
      shippingAddress: null,
      billingAddress: null,
      storeAccount: { platform: 'shopify', storeId: 's1', storeName: null, customerId: 'c1' },
    };
    expect(detailsFromOrders([older, newer])).toEqual({
      name: 'New',
      phone: '1',
      shippingAddress: address,
      billingAddress: null,
      storeAccounts: [{ platform: 'shopify', storeId: 's1', storeName: null, customerId: 'c1' }],
    });
  });

  it('is empty when no order is left', () => {
    expect(detailsFromOrders([])).toEqual({ name: null, phone: null, shippingAddress: null, billingAddress: null, storeAccounts: [] });
  });
});
