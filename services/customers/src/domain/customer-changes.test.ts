import { describe, expect, it } from '@jest/globals';
import type { Customer } from './customer.ts';
import { customerRowChanges } from './customer-changes.ts';

const base = {
  spent: { USD: '19.90' },
  storeAccounts: [{ platform: 'shopify', storeId: 's1', storeName: 'Shop', customerId: 'c1' }],
} as unknown as Customer;

describe('customerRowChanges', () => {
  it('writes nothing of the child rows when only counters changed', () => {
    expect(customerRowChanges(base, { ...base, ordersCount: 3 } as Customer)).toEqual({
      spentToWrite: [],
      spentToDelete: [],
      storeAccountsToWrite: [],
      storeAccountsToDelete: [],
    });
  });

  it('writes new and changed sums and accounts, and deletes the ones that are gone', () => {
    const after = {
      ...base,
      spent: { USD: '25.00', EUR: '5.00' },
      storeAccounts: [{ platform: 'woo', storeId: 'w1', storeName: null, customerId: null }],
    } as unknown as Customer;
    expect(customerRowChanges(base, after)).toEqual({
      spentToWrite: [
        ['USD', '25.00'],
        ['EUR', '5.00'],
      ],
      spentToDelete: [],
      storeAccountsToWrite: [{ platform: 'woo', storeId: 'w1', storeName: null, customerId: null }],
      storeAccountsToDelete: [{ platform: 'shopify', storeId: 's1' }],
    });
    expect(customerRowChanges(after, { ...after, spent: {} } as Customer).spentToDelete).toEqual(['USD', 'EUR']);
    const renamed = { ...base, storeAccounts: [{ ...base.storeAccounts[0]!, storeName: 'New name' }] } as Customer;
    expect(customerRowChanges(base, renamed).storeAccountsToWrite).toHaveLength(1);
  });
});
