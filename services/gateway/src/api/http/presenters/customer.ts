import type { Address, Customer, Order, StoreAccount } from '@hc/proto/customers/v1';

/** The spec's address object; all seven keys, null where unknown. */
export interface AddressObject {
  name: string | null;
  line1: string | null;
  line2: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
}

export interface StoreAccountObject {
  platform: string;
  store_id: string;
  store_name: string | null;
  customer_id: string | null;
}

/** The spec's customer object. The private dashboard note is not part of it, by design. */
export interface CustomerObject {
  id: string;
  object: 'customer';
  livemode: boolean;
  email: string | null;
  name: string | null;
  phone: string | null;
  shipping_address: AddressObject | null;
  billing_address: AddressObject | null;
  store_accounts: StoreAccountObject[];
  orders_count: number;
  paid_orders_count: number;
  spent: Record<string, string>;
  created: number;
  last_order_at: number | null;
  erased: boolean;
}

/** The order object (docs/customers.md): one per checkout session, id = the session's pay_ id. */
export interface OrderObject {
  id: string;
  object: 'order';
  livemode: boolean;
  customer_id: string | null;
  status: string;
  amount: string;
  currency: string;
  email: string | null;
  name: string | null;
  phone: string | null;
  shipping_address: AddressObject | null;
  billing_address: AddressObject | null;
  store_account: StoreAccountObject | null;
  created: number;
  paid_at: number | null;
}

function addressObject(address: Address | undefined): AddressObject | null {
  if (!address) return null;
  return {
    name: address.name ?? null,
    line1: address.line1 ?? null,
    line2: address.line2 ?? null,
    city: address.city ?? null,
    region: address.region ?? null,
    postal_code: address.postalCode ?? null,
    country: address.country ?? null,
  };
}

function storeAccountObject(store: StoreAccount): StoreAccountObject {
  return { platform: store.platform, store_id: store.storeId, store_name: store.storeName ?? null, customer_id: store.customerId ?? null };
}

const seconds = (value: bigint | undefined): number | null => (value === undefined ? null : Number(value));

export function customerObject(customer: Customer): CustomerObject {
  return {
    id: customer.id,
    object: 'customer',
    livemode: customer.livemode,
    email: customer.email ?? null,
    name: customer.name ?? null,
    phone: customer.phone ?? null,
    shipping_address: addressObject(customer.shippingAddress),
    billing_address: addressObject(customer.billingAddress),
    store_accounts: customer.storeAccounts.map(storeAccountObject),
    orders_count: customer.ordersCount,
    paid_orders_count: customer.paidOrdersCount,
    // Currency codes in a stable order, so equal customers serialize equally.
    spent: Object.fromEntries(Object.entries(customer.spent?.amounts ?? {}).sort(([a], [b]) => a.localeCompare(b))),
    created: Number(customer.created),
    last_order_at: seconds(customer.lastOrderAt),
    erased: customer.erased,
  };
}

export function orderObject(order: Order): OrderObject {
  return {
    id: order.id,
    object: 'order',
    livemode: order.livemode,
    customer_id: order.customerId ?? null,
    status: order.status,
    amount: order.amount,
    currency: order.currency,
    email: order.email ?? null,
    name: order.name ?? null,
    phone: order.phone ?? null,
    shipping_address: addressObject(order.shippingAddress),
    billing_address: addressObject(order.billingAddress),
    store_account: order.storeAccount ? storeAccountObject(order.storeAccount) : null,
    created: Number(order.created),
    paid_at: seconds(order.paidAt),
  };
}
