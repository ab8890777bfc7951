import { isMessage } from '@bufbuild/protobuf';
import { ContractViolation, decodeEvent, PAYMENT_EVENT, type PaymentEventType } from '@hc/events/contracts';
import { PaymentEventSchema, type PaymentEvent } from '@hc/proto/checkout/v1/events';
import { webhookEventId } from '../domain/event-id.ts';
import { webhookEventBody } from '../domain/webhook-event.ts';
import { webhookPayment } from '../domain/webhook-payment.ts';
import type { NewPaymentEvent } from '../store/events.ts';
import type { WebhooksDependencies } from './dependencies.ts';

/** The processed-messages name of the payment events consumer. */
export const PAYMENT_EVENTS_CONSUMER = 'webhooks_payment_events';

export type RecordOutcome =
  { readonly kind: 'recorded'; readonly deliveries: number } | { readonly kind: 'duplicate' } | { readonly kind: 'ignored' };

export interface SourceMessage {
  readonly msgId: string;
  /** The hc.checkout.v1.PaymentEvent the consumer decoded (or its JSON, decoded here the same way). */
  readonly data: PaymentEvent | unknown;
  /** The trace of the consumer span that received the message (ADR 0019); null with telemetry off. */
  readonly traceParent?: string | null;
}

/**
 * Turns checkout payment events into webhook events, each with the `evt_` id derived from its source
 * message id, and queues a delivery to each matching endpoint of its account and mode, in one
 * transaction (all applied, or none when it throws). The merchant-facing payment shape is built here
 * from the contract message (webhookPayment). A payload that is not a payment event is ignored (the
 * consumer dead-letters such payloads before they get here). Outcomes are in the order of `messages`.
 */
export async function recordPaymentEvents(deps: WebhooksDependencies, messages: readonly SourceMessage[]): Promise<RecordOutcome[]> {
  const outcomes: RecordOutcome[] = messages.map(() => ({ kind: 'ignored' }));
  const events: { index: number; event: NewPaymentEvent }[] = [];
  messages.forEach(({ msgId, data, traceParent }, index) => {
    const source = paymentEvent(data);
    if (!source?.payment) return;
    const occurredAt = Number(source.occurredAt);
    const payment = { ...webhookPayment(source.payment) };
    const body = webhookEventBody(webhookEventId(msgId), source.type as PaymentEventType, occurredAt, source.livemode, payment);
    events.push({
      index,
      event: {
        scope: { accountId: source.accountId, livemode: source.livemode },
        sourceMsgId: msgId,
        paymentId: source.payment.id,
        occurredAt: new Date(occurredAt),
        body,
        traceParent: traceParent ?? null,
      },
    });
  });
  if (events.length === 0) return outcomes;
  const queued = await deps.events.recordPaymentEvents(
    PAYMENT_EVENTS_CONSUMER,
    events.map((e) => e.event),
    deps.now(),
  );
  events.forEach(({ index }, i) => {
    const deliveries = queued[i] ?? null;
    outcomes[index] = deliveries === null ? { kind: 'duplicate' } : { kind: 'recorded', deliveries };
  });
  if (queued.some((n) => n !== null && n > 0)) deps.wakeWorker();
  return outcomes;
}

function paymentEvent(data: unknown): PaymentEvent | null {
  if (isMessage(data, PaymentEventSchema)) return data;
  try {
    return decodeEvent(PAYMENT_EVENT, data);
  } catch (error) {
    if (error instanceof ContractViolation) return null;
    throw error;
  }
}
