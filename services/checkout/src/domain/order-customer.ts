import { ApiError } from '@hc/errors';
import { normalizeEmail } from './new-payment.ts';

/**
 * The optional `customer` object of a create (docs/customers.md): who the order is for and the store
 * it came from. Checkout validates it and hands it to the customers context in the
 * `session.created` event; only the email is kept on the session itself.
 */
export interface RawAddress {
  name?: string | undefined;
  line1?: string | undefined;
  line2?: string | undefined;
  city?: string | undefined;
  region?: string | undefined;
  postalCode?: string | undefined;
  country?: string | undefined;
}

export interface RawStoreAccount {
  platform?: string | undefined;
  storeId?: string | undefined;
  storeName?: string | undefined;
  customerId?: string | undefined;
}

export interface RawOrderCustomer {
  email?: string | undefined;
  name?: string | undefined;
  phone?: string | undefined;
  shippingAddress?: RawAddress | undefined;
  billingAddress?: RawAddress | undefined;
  storeAccount?: RawStoreAccount | undefined;
}

/** An address with all seven keys; a key the merchant left out is null. Event payloads use camelCase. */
export interface OrderAddress {
  name: string | null;
  line1: string | null;
  line2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
}

export interface OrderStoreAccount {
  platform: string;
  storeId: string;
  storeName: string | null;
  customerId: string | null;
}

/** The validated details; null where the merchant sent nothing. */
export interface OrderCustomerDetails {
  name: string | null;
  phone: string | null;
  shippingAddress: OrderAddress | null;
  billingAddress: OrderAddress | null;
  storeAccount: OrderStoreAccount | null;
}

export const NO_CUSTOMER_DETAILS: OrderCustomerDetails = {
  name: null,
  phone: null,
  shippingAddress: null,
  billingAddress: null,
  storeAccount: null,
};

export const CUSTOMER_LIMITS = { name: 200, phone: 40, addressField: 200, storeField: 120, platform: 40 } as const;

const length = (value: string): number => [...value].length;

function invalid(field: string, why: string): never {
  throw new ApiError('invalid_customer', `${field} ${why}.`, field);
}

function text(raw: string | undefined, max: number, field: string): string | null {
  if (raw === undefined) return null;
  if (raw.trim() === '' || length(raw) > max) invalid(field, `must be a string of 1 to ${max} characters`);
  return raw;
}

// Stores send phone numbers in many formats; we keep them as sent, refusing only what cannot be one.
const PHONE_PATTERN = /^\+?[0-9][0-9 ().\-/]*$/;

function phone(raw: string | undefined): string | null {
  const value = text(raw, CUSTOMER_LIMITS.phone, 'customer.phone');
  if (value !== null && !PHONE_PATTERN.test(value.trim()))
    invalid('customer.phone', 'must be digits, spaces, ( ) . - / and an optional leading +');
  return value;
}

function address(raw: RawAddress | undefined, field: string): OrderAddress | null {
  if (raw === undefined) return null;
  const value = (raw: string | undefined, key: string) => text(raw, CUSTOMER_LIMITS.addressField, `${field}.${key}`);
  const country = raw.country ?? null;
  if (country !== null && !/^[A-Za-z]{2}$/.test(country)) invalid(`${field}.country`, 'must be a two-letter country code');
  const result: OrderAddress = {
    name: value(raw.name, 'name'),
    line1: value(raw.line1, 'line1'),
    line2: value(raw.line2, 'line2'),
    city: value(raw.city, 'city'),
    region: value(raw.region, 'region'),
    postalCode: value(raw.postalCode, 'postal_code'),
    country: country === null ? null : country.toUpperCase(),
  };
  if (Object.values(result).every((v) => v === null)) invalid(field, 'must have at least one of its fields');
  return result;
}

function storeAccount(raw: RawStoreAccount | undefined): OrderStoreAccount | null {
  if (raw === undefined) return null;
  const platform = text(raw.platform, CUSTOMER_LIMITS.platform, 'customer.store_account.platform');
  if (platform === null) invalid('customer.store_account.platform', 'is required');
  if (!/^[a-z0-9][a-z0-9_.-]*$/.test(platform)) invalid('customer.store_account.platform', 'must be lowercase letters, digits, _ . or -');
  const storeId = text(raw.storeId, CUSTOMER_LIMITS.storeField, 'customer.store_account.store_id');
  if (storeId === null) invalid('customer.store_account.store_id', 'is required');
  return {
    platform,
    storeId,
    storeName: text(raw.storeName, CUSTOMER_LIMITS.storeField, 'customer.store_account.store_name'),
    customerId: text(raw.customerId, CUSTOMER_LIMITS.storeField, 'customer.store_account.customer_id'),
  };
}

/**
 * The order's email and details from `customer_email` and the `customer` object. Both emails may be
 * sent when they agree (after lowercasing); differing ones are refused rather than one silently winning.
 */
export function orderCustomer(
  customerEmail: string | undefined,
  raw: RawOrderCustomer | undefined,
): { email: string | null; details: OrderCustomerDetails } {
  const topEmail = customerEmail === undefined ? null : normalizeEmail(customerEmail, 'customer_email');
  if (raw === undefined) return { email: topEmail, details: NO_CUSTOMER_DETAILS };
  const nestedEmail = raw.email === undefined ? null : normalizeEmail(raw.email, 'customer.email');
  if (topEmail !== null && nestedEmail !== null && topEmail !== nestedEmail) {
    throw new ApiError('invalid_email', 'customer_email and customer.email differ; send one of them.', 'customer.email');
  }
  return {
    email: topEmail ?? nestedEmail,
    details: {
      name: text(raw.name, CUSTOMER_LIMITS.name, 'customer.name'),
      phone: phone(raw.phone),
      shippingAddress: address(raw.shippingAddress, 'customer.shipping_address'),
      billingAddress: address(raw.billingAddress, 'customer.billing_address'),
      storeAccount: storeAccount(raw.storeAccount),
    },
  };
}
