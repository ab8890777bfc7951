import type { WebhookEventType } from './event-types.ts';

/** The delivered body: the spec's event object. Its key order is the order merchants see. */
export interface WebhookEventBody {
  id: string;
  type: WebhookEventType;
  /** Unix seconds. */
  created: number;
  livemode: boolean;
  data: { payment: Record<string, unknown> | null };
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
