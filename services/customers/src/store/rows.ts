import type { Address, Customer, Order, SpentByCurrency, StoreAccount } from '../domain/customer.ts';
import { Prisma } from './generated/prisma/client.ts';

/** Row ↔ domain mapping, shared by the store and its transactions. */
export const customerInclude = {
  spent: { orderBy: { currency: 'asc' } },
  storeAccounts: { orderBy: [{ platform: 'asc' }, { storeId: 'asc' }] },
} satisfies Prisma.CustomerInclude;

export type CustomerRow = Prisma.CustomerGetPayload<{ include: typeof customerInclude }>;
export type OrderRow = Prisma.OrderGetPayload<object>;

const ADDRESS_KEYS = ['name', 'line1', 'line2', 'city', 'region', 'postalCode', 'country'] as const;

function toAddress(value: Prisma.JsonValue | null, where: string): Address | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw new Error(`${where} is not an address object`);
  const address = {} as Address;
  for (const key of ADDRESS_KEYS) {
    const part = value[key] ?? null;
    if (part !== null && typeof part !== 'string') throw new Error(`${where}.${key} is not a string`);
    address[key] = part;
  }
  return address;
}

export function toCustomer(row: CustomerRow): Customer {
  const spent: Record<string, string> = {};
  for (const s of row.spent) spent[s.currency] = s.amount.toFixed(2);
  return {
    id: row.id,
    accountId: row.accountId,
    livemode: row.livemode,
    email: row.email,
    name: row.name,
    phone: row.phone,
    shippingAddress: toAddress(row.shippingAddress, `customers ${row.id} shipping_address`),
    billingAddress: toAddress(row.billingAddress, `customers ${row.id} billing_address`),
    storeAccounts: row.storeAccounts.map((a): StoreAccount => ({
      platform: a.platform,
      storeId: a.storeId,
      storeName: a.storeName,
      customerId: a.storeCustomerId,
    })),
    ordersCount: row.ordersCount,
    paidOrdersCount: row.paidOrdersCount,
    spent: spent as SpentByCurrency,
    createdAt: row.createdAt,
    lastOrderAt: row.lastOrderAt,
    erased: row.erased,
  };
}

export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    accountId: row.accountId,
    livemode: row.livemode,
    customerId: row.customerId,
    email: row.email,
    name: row.name,
    phone: row.phone,
    shippingAddress: toAddress(row.shippingAddress, `orders ${row.id} shipping_address`),
    billingAddress: toAddress(row.billingAddress, `orders ${row.id} billing_address`),
    storeAccount:
      row.storePlatform !== null && row.storeId !== null
        ? { platform: row.storePlatform, storeId: row.storeId, storeName: row.storeName, customerId: row.storeCustomerId }
        : null,
    amount: row.amount.toFixed(2),
    currency: row.currency,
    status: row.status,
    statusAt: row.statusAt,
    createdAt: row.createdAt,
    paidAt: row.paidAt,
    emailRevision: row.emailRevision,
    paid: row.paid,
    paidAmount: row.paidAmount.toFixed(2),
  };
}

/**
 * Customers with their spent sums and store accounts in ONE statement (Prisma's include reads the
 * children with a query each): the consumer's hot path reads a customer per event, a list page 20.
 * The WHERE clause is the caller's; a lock adds `FOR UPDATE OF c`, which locks the customer row only.
 */
export const CUSTOMER_SELECT = `
  SELECT c.id, c.account_id AS "accountId", c.livemode, c.email, c.name, c.phone,
         c.shipping_address AS "shippingAddress", c.billing_address AS "billingAddress",
         c.orders_count AS "ordersCount", c.paid_orders_count AS "paidOrdersCount",
         c.created_at AS "createdAt", c.last_order_at AS "lastOrderAt", c.erased, c.erased_at AS "erasedAt", c.note,
         COALESCE((SELECT json_agg(json_build_object('currency', s.currency, 'amount', s.amount::text) ORDER BY s.currency)
                     FROM customer_spent s WHERE s.customer_id = c.id), '[]'::json) AS spent,
         COALESCE((SELECT json_agg(json_build_object('platform', a.platform, 'storeId', a.store_id, 'storeName', a.store_name,
                                                     'storeCustomerId', a.store_customer_id) ORDER BY a.platform, a.store_id)
                     FROM customer_store_accounts a WHERE a.customer_id = c.id), '[]'::json) AS "storeAccounts"
    FROM customers c`;

/** A CUSTOMER_SELECT row: children as JSON, amounts as the column's exact text. */
export interface CustomerSelectRow extends Omit<CustomerRow, 'spent' | 'storeAccounts'> {
  spent: { currency: string; amount: string }[];
  storeAccounts: { platform: string; storeId: string; storeName: string | null; storeCustomerId: string | null }[];
}

export function customerOfRow(row: CustomerSelectRow): Customer {
  return toCustomer({
    ...row,
    spent: row.spent.map((s) => ({ customerId: row.id, currency: s.currency, amount: new Prisma.Decimal(s.amount) })),
    storeAccounts: row.storeAccounts.map((a) => ({ ...a, customerId: row.id, updatedAt: row.createdAt })),
  });
}

/** One order, locked, in one statement (was a FOR UPDATE and then Prisma's read); amounts as exact text. */
export const LOCKED_ORDER_SELECT = `
  SELECT id, account_id AS "accountId", livemode, customer_id AS "customerId", email, name, phone,
         shipping_address AS "shippingAddress", billing_address AS "billingAddress",
         store_platform AS "storePlatform", store_id AS "storeId", store_name AS "storeName", store_customer_id AS "storeCustomerId",
         amount::text AS amount, currency, status, status_at AS "statusAt", created_at AS "createdAt", paid_at AS "paidAt",
         email_revision AS "emailRevision", paid, paid_amount::text AS "paidAmount"
    FROM orders`;

export interface LockedOrderRow extends Omit<OrderRow, 'amount' | 'paidAmount'> {
  amount: string;
  paidAmount: string;
}

export function lockedOrder(row: LockedOrderRow): Order {
  return toOrder({ ...row, amount: new Prisma.Decimal(row.amount), paidAmount: new Prisma.Decimal(row.paidAmount) });
}
