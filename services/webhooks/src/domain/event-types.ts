import { ApiError } from '@hc/errors';
import { isPaymentEventType, type PaymentEventType } from '@hc/events/contracts';

/** The spec's payment event types, declared once for every context (docs/adr/0022). */
export { PAYMENT_EVENT_TYPES, isPaymentEventType, type PaymentEventType } from '@hc/events/contracts';

/** Every type a delivery can carry. `ping` is sent only by the ping action, whatever an endpoint's filter. */
export type WebhookEventType = PaymentEventType | 'ping';

/** The filter value that matches every payment event type, present and future. */
export const ALL_EVENTS = '*';

/**
 * An endpoint's event-type filter as the merchant gave it: empty means everything, `*` must stand
 * alone, every other value must be a known type. Duplicates are dropped; the order is kept.
 */
export function parseEventFilter(values: readonly string[]): string[] {
  const wanted = [...new Set(values.map((v) => v.trim()))];
  if (wanted.length === 0) return [ALL_EVENTS];
  if (wanted.includes(ALL_EVENTS)) {
    if (wanted.length > 1) throw new ApiError('invalid_event_types', '"*" cannot be combined with other event types.', 'enabled_events');
    return [ALL_EVENTS];
  }
  const unknown = wanted.filter((v) => !isPaymentEventType(v));
  if (unknown.length > 0) {
    throw new ApiError('invalid_event_types', `Unknown event type(s): ${unknown.join(', ')}.`, 'enabled_events');
  }
  return wanted;
}

/** Whether an endpoint with this filter receives events of this type (pings never go by filter). */
export function filterMatches(filter: readonly string[], type: WebhookEventType): boolean {
  if (type === 'ping') return false;
  return filter.includes(ALL_EVENTS) || filter.includes(type);
}
