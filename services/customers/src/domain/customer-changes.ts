import type { Customer, StoreAccount } from './customer.ts';

/**
 * What a save must write of a customer's child rows: only what differs from the locked row it
 * started from (most events change counters, not the spent sums or store accounts), so a save is
 * one UPDATE plus the rows that really changed rather than a delete and an upsert of every row.
 */
export interface CustomerRowChanges {
  /** Currencies whose spent sum is new or different. */
  readonly spentToWrite: [currency: string, amount: string][];
  /** Currencies whose spent row must go. */
  readonly spentToDelete: string[];
  readonly storeAccountsToWrite: StoreAccount[];
  readonly storeAccountsToDelete: Pick<StoreAccount, 'platform' | 'storeId'>[];
}

const accountKey = (account: Pick<StoreAccount, 'platform' | 'storeId'>): string => JSON.stringify([account.platform, account.storeId]);

export function customerRowChanges(before: Customer, after: Customer): CustomerRowChanges {
  const beforeAccounts = new Map(before.storeAccounts.map((a) => [accountKey(a), a]));
  const afterKeys = new Set(after.storeAccounts.map(accountKey));
  return {
    spentToWrite: Object.entries(after.spent).filter(([currency, amount]) => before.spent[currency] !== amount),
    spentToDelete: Object.keys(before.spent).filter((currency) => !(currency in after.spent)),
    storeAccountsToWrite: after.storeAccounts.filter((a) => {
      const was = beforeAccounts.get(accountKey(a));
      return !was || was.storeName !== a.storeName || was.customerId !== a.customerId;
    }),
    storeAccountsToDelete: before.storeAccounts
      .filter((a) => !afterKeys.has(accountKey(a)))
      .map(({ platform, storeId }) => ({ platform, storeId })),
  };
}
