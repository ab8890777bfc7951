import { isPaymentEventType, type PaymentEventType, type WebhookEventType } from './event-types.ts';

/** The payment snapshot in the spec's webhook payment shape, as checkout published it. Kept opaque: delivered as received. */
export type PaymentSnapshot = { readonly id: string } & Readonly<Record<string, unknown>>;

/** A checkout payment event as it arrives on JetStream (docs/events.md). */
export interface SourcePaymentEvent {
  readonly type: PaymentEventType;
  /** Unix milliseconds. */
  readonly occurredAt: number;
  readonly accountId: string;
  readonly livemode: boolean;
  readonly payment: PaymentSnapshot;
}

/** The delivered body: the spec's event object. Its key order is the order merchants see. */
export interface WebhookEventBody {
  id: string;
  type: WebhookEventType;
  /** Unix seconds. */
  created: number;
  livemode: boolean;
  data: { payment: Record<string, unknown> | null };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The source event, or null when the payload is not a payment event this context understands. */
export function parseSourcePaymentEvent(data: unknown): SourcePaymentEvent | null {
  if (!isRecord(data)) return null;
  const { type, occurredAt, accountId, livemode, payment } = data;
  if (!isPaymentEventType(type) || typeof occurredAt !== 'number' || !Number.isFinite(occurredAt)) return null;
  if (typeof accountId !== 'string' || accountId === '' || typeof livemode !== 'boolean') return null;
  if (!isRecord(payment) || typeof payment['id'] !== 'string') return null;
  return { type, occurredAt, accountId, livemode, payment: payment as PaymentSnapshot };
}

export function webhookEventBody(
  id: string,
  type: WebhookEventType,
  occurredAtMs: number,
  livemode: boolean,
  payment: Record<string, unknown> | null,
): WebhookEventBody {
  return { id, type, created: Math.floor(occurredAtMs / 1000), livemode, data: { payment } };
}

/** The buyer's personal details in a payment snapshot; an erasure sets them to null. */
export const CUSTOMER_DETAIL_FIELDS = ['customerEmail', 'customerName'] as const;

/** The body without the buyer's details (same keys, same order, values null). */
export function withoutCustomerDetails(body: WebhookEventBody): WebhookEventBody {
  const payment = body.data.payment;
  if (payment === null) return body;
  const scrubbed = { ...payment };
  for (const field of CUSTOMER_DETAIL_FIELDS) if (field in scrubbed) scrubbed[field] = null;
  return { ...body, data: { ...body.data, payment: scrubbed } };
}
