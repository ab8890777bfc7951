import type { MessageInitShape } from '@bufbuild/protobuf';
import type { AddressSchema, CustomerSchema, OrderSchema, StoreAccountSchema } from '@hc/proto/customers/v1';
import type { Address, Customer, Order, StoreAccount } from '../../domain/customer.ts';
import { unixSecondsBig } from '@hc/conversions';

const unixSeconds = unixSecondsBig;

function addressMessage(address: Address | null): MessageInitShape<typeof AddressSchema> | undefined {
  if (address === null) return undefined;
  return {
    name: address.name ?? undefined,
    line1: address.line1 ?? undefined,
    line2: address.line2 ?? undefined,
    city: address.city ?? undefined,
    region: address.region ?? undefined,
    postalCode: address.postalCode ?? undefined,
    country: address.country ?? undefined,
  };
}

function storeAccountMessage(account: StoreAccount): MessageInitShape<typeof StoreAccountSchema> {
  return {
    platform: account.platform,
    storeId: account.storeId,
    storeName: account.storeName ?? undefined,
    customerId: account.customerId ?? undefined,
  };
}

/** The public customer object. The private note is not part of Customer and never passes here (rule 6). */
export function customerMessage(customer: Customer): MessageInitShape<typeof CustomerSchema> {
  return {
    id: customer.id,
    livemode: customer.livemode,
    email: customer.email ?? undefined,
    name: customer.name ?? undefined,
    phone: customer.phone ?? undefined,
    shippingAddress: addressMessage(customer.shippingAddress),
    billingAddress: addressMessage(customer.billingAddress),
    storeAccounts: customer.storeAccounts.map(storeAccountMessage),
    ordersCount: customer.ordersCount,
    paidOrdersCount: customer.paidOrdersCount,
    spent: { amounts: { ...customer.spent } },
    created: unixSeconds(customer.createdAt),
    lastOrderAt: customer.lastOrderAt ? unixSeconds(customer.lastOrderAt) : undefined,
    erased: customer.erased,
  };
}

export function orderMessage(order: Order): MessageInitShape<typeof OrderSchema> {
  return {
    id: order.id,
    livemode: order.livemode,
    customerId: order.customerId ?? undefined,
    status: order.status,
    amount: order.amount,
    currency: order.currency,
    email: order.email ?? undefined,
    name: order.name ?? undefined,
    phone: order.phone ?? undefined,
    shippingAddress: addressMessage(order.shippingAddress),
    billingAddress: addressMessage(order.billingAddress),
    storeAccount: order.storeAccount ? storeAccountMessage(order.storeAccount) : undefined,
    created: unixSeconds(order.createdAt),
    paidAt: order.paidAt ? unixSeconds(order.paidAt) : undefined,
  };
}
