import { webhookEventId } from '../domain/event-id.ts';
import { parseSourcePaymentEvent, webhookEventBody } from '../domain/webhook-event.ts';
import type { WebhooksDependencies } from './dependencies.ts';

/** The processed-messages name of the payment events consumer. */
export const PAYMENT_EVENTS_CONSUMER = 'webhooks_payment_events';

export type RecordOutcome =
  { readonly kind: 'recorded'; readonly deliveries: number } | { readonly kind: 'duplicate' } | { readonly kind: 'ignored' };

/**
 * Turns one checkout payment event into one webhook event, with the `evt_` id derived from the
 * source message id, and queues a delivery to each matching endpoint of its account and mode.
 * A payload that is not a payment event is ignored (retrying cannot fix it).
 */
export async function recordPaymentEvent(deps: WebhooksDependencies, sourceMsgId: string, data: unknown): Promise<RecordOutcome> {
  const source = parseSourcePaymentEvent(data);
  if (!source) return { kind: 'ignored' };
  const body = webhookEventBody(webhookEventId(sourceMsgId), source.type, source.occurredAt, source.livemode, { ...source.payment });
  const deliveries = await deps.events.recordPaymentEvent(
    PAYMENT_EVENTS_CONSUMER,
    { scope: { accountId: source.accountId, livemode: source.livemode }, sourceMsgId, paymentId: source.payment.id, body },
    deps.now(),
  );
  if (deliveries === null) return { kind: 'duplicate' };
  if (deliveries > 0) deps.wakeWorker();
  return { kind: 'recorded', deliveries };
}
