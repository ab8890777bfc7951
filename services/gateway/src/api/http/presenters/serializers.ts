import fastJson from 'fast-json-stringify';
import type { CheckoutSessionObject } from './checkout-session.ts';
import type { PaymentObject } from './payment.ts';
import { responseSchemas } from './schemas.ts';

/**
 * Response serializers compiled from the very schemas the OpenAPI document publishes (schemas.ts),
 * so the two cannot drift (docs/adr/0063). A compiled serializer writes only the properties its schema
 * names, so a presenter field missing from the schema would vanish silently: serializers.test.ts
 * proves each one's output equals JSON.stringify of its presenter, nulls and metadata included, and
 * the contract test already fails on any presenter field the schema lacks.
 */
const schemas = responseSchemas([], []);

function compiled<T>(name: 'Payment' | 'CheckoutSession'): (value: T) => string {
  const schema = schemas[name];
  if (!schema) throw new Error(`no response schema ${name}`);
  return fastJson(schema) as (value: T) => string;
}

export const serializePayment = compiled<PaymentObject>('Payment');
export const serializeCheckoutSession = compiled<CheckoutSessionObject>('CheckoutSession');

/**
 * A list page of payments, `{ data, has_more, next_cursor }` as the list routes answer it, each
 * payment written by serializePayment: a page is 20 payments, JSON.stringify's walk of them was the
 * gateway's largest cost of a list (docs/adr/0097).
 */
export function serializePaymentList(data: readonly PaymentObject[], hasMore: boolean): string {
  const cursor = hasMore ? (data.at(-1)?.id ?? null) : null;
  return `{"data":[${data.map(serializePayment).join(',')}],"has_more":${hasMore},"next_cursor":${JSON.stringify(cursor)}}`;
}
