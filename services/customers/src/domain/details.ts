import { NO_CONTACT_DETAILS, type ContactDetails, type StoreAccount } from './customer.ts';

/**
 * Emails identify customers whatever their letter case (rule 1). Checkout already lowercases them;
 * doing it again here keeps the rule true for any producer.
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Rule 3: each detail an order provides replaces the saved one; a detail the order leaves out (null)
 * keeps the earlier value. An address is replaced whole, never merged key by key: the keys of two
 * different addresses do not belong together.
 */
export function mergeContactDetails(saved: ContactDetails, order: ContactDetails): ContactDetails {
  return {
    name: order.name ?? saved.name,
    phone: order.phone ?? saved.phone,
    shippingAddress: order.shippingAddress ?? saved.shippingAddress,
    billingAddress: order.billingAddress ?? saved.billingAddress,
  };
}

/**
 * A customer keeps one store account per (platform, store id); a later order's values replace the
 * earlier ones, except that a store name or customer id the order leaves out keeps the earlier value.
 */
export function mergeStoreAccounts(saved: readonly StoreAccount[], order: StoreAccount | null): StoreAccount[] {
  if (order === null) return [...saved];
  const index = saved.findIndex((a) => a.platform === order.platform && a.storeId === order.storeId);
  if (index === -1) return [...saved, { ...order }];
  const earlier = saved[index]!;
  const merged: StoreAccount = {
    platform: order.platform,
    storeId: order.storeId,
    storeName: order.storeName ?? earlier.storeName,
    customerId: order.customerId ?? earlier.customerId,
  };
  return saved.map((account, i) => (i === index ? merged : account));
}

/**
 * A customer's details and store accounts as its orders give them, applied oldest first (rule 3).
 * Used when an order moves away (rule 5): what it brought must leave with it, or the buyer's
 * details would stay on a customer that no longer has their order (and survive their erasure).
 */
export function detailsFromOrders(orders: readonly (ContactDetails & { storeAccount: StoreAccount | null })[]): ContactDetails & {
  storeAccounts: StoreAccount[];
} {
  let details: ContactDetails = NO_CONTACT_DETAILS;
  let storeAccounts: StoreAccount[] = [];
  for (const order of orders) {
    details = mergeContactDetails(details, order);
    storeAccounts = mergeStoreAccounts(storeAccounts, order.storeAccount);
  }
  return { ...details, storeAccounts };
}
