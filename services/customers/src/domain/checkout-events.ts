import type { Address, ContactDetails, Scope, StoreAccount } from './customer.ts';
import { normalizeEmail } from './details.ts';

/**
 * The checkout stream's events this context reads (docs/events.md, "Checkout context" and "internal
 * order events"), validated from the JSON as published. Only the fields used here are read; the
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

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function field<T>(object: Json, key: string, check: (value: unknown) => value is T, what: string): T {
  const value = object[key];
  if (!check(value)) throw new MalformedEventError(`${key} must be ${what}`);
  return value;
}

const isString = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isStringOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isInteger = (value: unknown): value is number => Number.isSafeInteger(value);
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isMillis = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isDecimal = (value: unknown): value is string => typeof value === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(value);

/** A string field that may be missing or null; an empty string counts as left out. */
function optionalString(object: Json, key: string): string | null {
  const value = object[key] ?? null;
  if (!isStringOrNull(value)) throw new MalformedEventError(`${key} must be a string or null`);
  return value === '' ? null : value;
}

function address(value: unknown, key: string): Address | null {
  if (value === null || value === undefined) return null;
  if (!isObject(value)) throw new MalformedEventError(`${key} must be an address or null`);
  const parsed: Address = {
    name: optionalString(value, 'name'),
    line1: optionalString(value, 'line1'),
    line2: optionalString(value, 'line2'),
    city: optionalString(value, 'city'),
    region: optionalString(value, 'region'),
    postalCode: optionalString(value, 'postalCode'),
    country: optionalString(value, 'country'),
  };
  // An address without a single value says nothing: treat it as left out, so it keeps the saved one.
  return Object.values(parsed).every((v) => v === null) ? null : parsed;
}

function storeAccount(value: unknown): StoreAccount | null {
  if (value === null || value === undefined) return null;
  if (!isObject(value)) throw new MalformedEventError('storeAccount must be an object or null');
  const platform = optionalString(value, 'platform');
  const storeId = optionalString(value, 'storeId');
  // Without both keys the account cannot be told apart from another store's: nothing to keep.
  if (platform === null || storeId === null) return null;
  return { platform, storeId, storeName: optionalString(value, 'storeName'), customerId: optionalString(value, 'customerId') };
}

function base(data: Json): EventBase {
  return {
    id: field(data, 'id', isString, 'a string'),
    accountId: field(data, 'accountId', isString, 'a string'),
    livemode: field(data, 'livemode', isBoolean, 'a boolean'),
    occurredAt: new Date(field(data, 'occurredAt', isMillis, 'Unix milliseconds')),
  };
}

function emailOrNull(value: string | null): string | null {
  return value === null || value.trim() === '' ? null : normalizeEmail(value);
}

/**
 * The event in `data`, or null when its type is not one this context reads (acknowledged and
 * skipped, so new event types never block the consumer). Throws MalformedEventError when a known
 * type does not have the documented shape.
 */
export function parseCheckoutEvent(data: unknown): CheckoutEvent | null {
  if (!isObject(data) || typeof data.type !== 'string') throw new MalformedEventError('the payload has no type');
  const type = data.type;
  if (type === 'session.created') {
    const session = field(data, 'session', isObject, 'an object');
    const customer = data.customer ?? {};
    if (!isObject(customer)) throw new MalformedEventError('customer must be an object');
    return {
      ...base(data),
      type,
      session: {
        id: field(session, 'id', isString, 'a string'),
        amount: field(session, 'amount', isDecimal, 'a decimal string'),
        currency: field(session, 'currency', isString, 'a currency code').toUpperCase(),
        status: field(session, 'status', isString, 'a string'),
        createdAt: new Date(field(session, 'createdAt', isMillis, 'Unix milliseconds')),
        customerEmail: emailOrNull(optionalString(session, 'customerEmail')),
      },
      customer: {
        name: optionalString(customer, 'name'),
        phone: optionalString(customer, 'phone'),
        shippingAddress: address(customer.shippingAddress, 'shippingAddress'),
        billingAddress: address(customer.billingAddress, 'billingAddress'),
        storeAccount: storeAccount(customer.storeAccount),
      },
    };
  }
  if (type === 'session.started') {
    const revision = field(data, 'revision', isInteger, 'an integer');
    if (revision < 1) throw new MalformedEventError('revision must be at least 1');
    return {
      ...base(data),
      type,
      sessionId: field(data, 'sessionId', isString, 'a string'),
      customerEmail: normalizeEmail(field(data, 'customerEmail', isString, 'an email')),
      revision,
    };
  }
  if (type.startsWith('payment.')) {
    const payment = field(data, 'payment', isObject, 'an object');
    const paidAt = payment.paidAt ?? null;
    if (paidAt !== null && !isMillis(paidAt)) throw new MalformedEventError('paidAt must be Unix milliseconds or null');
    return {
      ...base(data),
      type: type as PaymentChanged['type'],
      payment: {
        id: field(payment, 'id', isString, 'a string'),
        amount: field(payment, 'amount', isDecimal, 'a decimal string'),
        currency: field(payment, 'currency', isString, 'a currency code').toUpperCase(),
        status: field(payment, 'status', isString, 'a string'),
        paidAt: paidAt === null ? null : new Date(paidAt),
      },
    };
  }
  return null;
}
