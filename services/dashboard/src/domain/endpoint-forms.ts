import { PAYMENT_EVENT_TYPES } from '@hc/events/contracts';

/** The event types an endpoint can subscribe to, for the form's checkboxes. */
export const EVENT_TYPE_CHOICES = PAYMENT_EVENT_TYPES;

/**
 * The endpoint form's event choice as the webhooks service takes it: "all" (or nothing ticked) is the
 * empty list, which means every type ("*"); otherwise the ticked types, known ones only, each once.
 * Repeated form fields arrive as an array, a single one as a string.
 */
export function enabledEventsFrom(scope: unknown, ticked: unknown): string[] {
  if (scope !== 'some') return [];
  const values = Array.isArray(ticked) ? ticked : [ticked];
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && (EVENT_TYPE_CHOICES as readonly string[]).includes(v)))];
}

/** How an endpoint's filter reads on its page. */
export function describeEvents(enabled: readonly string[]): string {
  return enabled.length === 0 || enabled.includes('*') ? 'All events' : enabled.join(', ');
}
