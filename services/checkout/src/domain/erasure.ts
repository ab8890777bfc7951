import { NO_CUSTOMER_DETAILS } from './order-customer.ts';

/**
 * The payload of an outbox row with the buyer's personal data removed: what an event of an erased
 * customer's payment keeps (ids, amounts, statuses). Payloads of unknown shape are returned as they are.
 */
export function erasedEventPayload(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null) return payload;
  const event = payload as Record<string, unknown>;
  const scrubbed: Record<string, unknown> = { ...event };
  if (isRecord(event['payment'])) scrubbed['payment'] = { ...event['payment'], customerEmail: null, customerName: null };
  if (isRecord(event['session'])) scrubbed['session'] = { ...event['session'], customerEmail: null };
  if ('customer' in event) scrubbed['customer'] = NO_CUSTOMER_DETAILS;
  if (event['type'] === 'session.started') scrubbed['customerEmail'] = null;
  return scrubbed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
