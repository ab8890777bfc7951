import { ContractViolation, decodeCheckoutEvent, type CheckoutStreamEvent } from '@hc/events/contracts';
import type { Address as ContractAddress, StoreAccount as ContractStoreAccount } from '@hc/proto/checkout/v1';
import type { Address, ContactDetails, Scope, StoreAccount } from './customer.ts';
import { normalizeEmail } from './details.ts';

/**
 * The checkout stream's events this context reads (docs/events.md, "Checkout context" and "internal
 * order events"), read through the shared contract decode. Only the fields used here are read; the
 * payment snapshot's personal fields (customerEmail, customerName) are deliberately ignored: orders
 * get their email from session events only, so a late payment event cannot bring back erased data.
 */
interface EventBase extends Scope {
  /** The event id (also its Nats-Msg-Id). */
  id: string;
  occurredAt: Date;
}

export interface SessionCreated extends EventBase {
  type: 'session.created';
  session: { id: string; amount: string; currency: string; status: string; createdAt: Date; customerEmail: string | null };
  customer: ContactDetails & { storeAccount: StoreAccount | null };
}

export interface SessionStarted extends EventBase {
  type: 'session.started';
  sessionId: string;
  customerEmail: string;
  revision: number;
}

export interface PaymentChanged extends EventBase {
  /** payment.started, payment.paid, payment.held, … */
  type: `payment.${string}`;
  payment: { id: string; amount: string; currency: string; status: string; paidAt: Date | null };
}

export type CheckoutEvent = SessionCreated | SessionStarted | PaymentChanged;

/** The payload has a known type but not the documented shape: a producer bug, not a retryable failure. */
export class MalformedEventError extends Error {
  override name = 'MalformedEventError';
}

const isDecimal = (value: string): boolean => /^[0-9]+(\.[0-9]+)?$/.test(value);

function required(value: string, key: string, what = 'a string'): string {
  if (value === '') throw new MalformedEventError(`${key} must be ${what}`);
  return value;
}

function decimal(value: string, key: string): string {
  if (!isDecimal(value)) throw new MalformedEventError(`${key} must be a decimal string`);
  return value;
}

function millis(value: bigint, key: string): Date {
  if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) throw new MalformedEventError(`${key} must be Unix milliseconds`);
  return new Date(Number(value));
}

/** A string field that may be missing or null; an empty string counts as left out. */
const optional = (value: string | undefined): string | null => (value === undefined || value === '' ? null : value);

function address(value: ContractAddress | undefined): Address | null {
  if (value === undefined) return null;
  const parsed: Address = {
    name: optional(value.name),
    line1: optional(value.line1),
    line2: optional(value.line2),
    city: optional(value.city),
    region: optional(value.region),
    postalCode: optional(value.postalCode),
    country: optional(value.country),
  };
  // An address without a single value says nothing: treat it as left out, so it keeps the saved one.
  return Object.values(parsed).every((v) => v === null) ? null : parsed;
}

function storeAccount(value: ContractStoreAccount | undefined): StoreAccount | null {
  if (value === undefined) return null;
  const platform = optional(value.platform);
  const storeId = optional(value.storeId);
  // Without both keys the account cannot be told apart from another store's: nothing to keep.
  if (platform === null || storeId === null) return null;
  return { platform, storeId, storeName: optional(value.storeName), customerId: optional(value.customerId) };
}

function base(event: { id: string; accountId: string; livemode: boolean; occurredAt: bigint }): EventBase {
  return {
    id: required(event.id, 'id'),
    accountId: required(event.accountId, 'accountId'),
    livemode: event.livemode,
    occurredAt: millis(event.occurredAt, 'occurredAt'),
  };
}

function emailOrNull(value: string | null): string | null {
  return value === null || value.trim() === '' ? null : normalizeEmail(value);
}

/**
 * The event in `data`, or null when its type is not one this context reads (acknowledged and
 * skipped, so new event types never block the consumer). The payload is read with the one shared
 * decode of the event contracts (@hc/events/contracts, proto/hc/checkout/v1/events.proto); throws
 * MalformedEventError when a known type breaks its contract or this context's rules.
 */
export function parseCheckoutEvent(data: unknown): CheckoutEvent | null {
  let decoded: CheckoutStreamEvent | null;
  try {
    decoded = decodeCheckoutEvent(data);
  } catch (error) {
    if (error instanceof ContractViolation) throw new MalformedEventError(error.message);
    throw error;
  }
  if (decoded === null) return null;
  if (decoded.type === 'session.created') {
    const { event } = decoded;
    const session = event.session!;
    const customer = event.customer;
    return {
      ...base(event),
      type: decoded.type,
      session: {
        id: required(session.id, 'id'),
        amount: decimal(session.amount, 'amount'),
        currency: required(session.currency, 'currency', 'a currency code').toUpperCase(),
        status: required(session.status, 'status'),
        createdAt: millis(session.createdAt, 'createdAt'),
        customerEmail: emailOrNull(optional(session.customerEmail)),
      },
      customer: {
        name: optional(customer?.name),
        phone: optional(customer?.phone),
        shippingAddress: address(customer?.shippingAddress),
        billingAddress: address(customer?.billingAddress),
        storeAccount: storeAccount(customer?.storeAccount),
      },
    };
  }
  if (decoded.type === 'session.started') {
    const { event } = decoded;
    if (event.revision < 1) throw new MalformedEventError('revision must be at least 1');
    return {
      ...base(event),
      type: decoded.type,
      sessionId: required(event.sessionId, 'sessionId'),
      customerEmail: normalizeEmail(required(event.customerEmail, 'customerEmail', 'an email')),
      revision: event.revision,
    };
  }
  const { event } = decoded;
  const payment = event.payment!;
  return {
    ...base(event),
    type: decoded.type,
    payment: {
      id: required(payment.id, 'id'),
      amount: decimal(payment.amount, 'amount'),
      currency: required(payment.currency, 'currency', 'a currency code').toUpperCase(),
      status: required(payment.status, 'status'),
      paidAt: payment.paidAt === undefined ? null : millis(payment.paidAt, 'paidAt'),
    },
  };
}
