import type { WebhookEventType } from './event-types.ts';
import type { WebhookEventBody } from './webhook-event.ts';

// What the event log holds, as the use cases and the API read it (store/ maps its rows to these).

export interface StoredEvent {
  readonly id: string;
  readonly accountId: string;
  readonly livemode: boolean;
  readonly type: WebhookEventType;
  readonly paymentId: string | null;
  readonly body: WebhookEventBody;
}

export interface AttemptLogEntry {
  readonly id: string;
  readonly deliveryId: string;
  readonly eventId: string;
  readonly endpointId: string;
  readonly attemptNumber: number;
  readonly attemptedAt: Date;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly succeeded: boolean;
  readonly latencyMs: number;
  readonly requestBody: string;
  readonly responseSnippet: string | null;
  readonly nextAttemptAt: Date | null;
}
