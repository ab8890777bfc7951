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

/** An address as jsonb (all seven keys), or SQL NULL. */
export function addressJson(address: Address | null): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return address === null ? Prisma.DbNull : { ...address };
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

/** Every column of an order except its identity and scope. */
export function orderData(order: Order) {
  return {
    customerId: order.customerId,
    email: order.email,
    name: order.name,
    phone: order.phone,
    shippingAddress: addressJson(order.shippingAddress),
    billingAddress: addressJson(order.billingAddress),
    storePlatform: order.storeAccount?.platform ?? null,
    storeId: order.storeAccount?.storeId ?? null,
    storeName: order.storeAccount?.storeName ?? null,
    storeCustomerId: order.storeAccount?.customerId ?? null,
    amount: order.amount,
    currency: order.currency,
    status: order.status,
    statusAt: order.statusAt,
    createdAt: order.createdAt,
    paidAt: order.paidAt,
    emailRevision: order.emailRevision,
    paid: order.paid,
    paidAmount: order.paidAmount,
  } satisfies Prisma.OrderUncheckedUpdateInput;
}
