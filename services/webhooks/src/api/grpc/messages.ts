import type { MessageInitShape } from '@bufbuild/protobuf';
import type { CheckEndpointResponseSchema, DeliveryAttemptSchema, EndpointSchema, EventSchema } from '@hc/proto/webhooks/v1';
import type { EndpointCheckReport } from '../../use-cases/check-endpoint.ts';
import type { WebhookEndpoint } from '../../domain/endpoint.ts';
import type { AttemptLogEntry, StoredEvent } from '../../domain/event-log.ts';
import { unixSecondsBig } from '@hc/conversions';

const seconds = unixSecondsBig;
const optionalSeconds = (date: Date | null): bigint | undefined => (date === null ? undefined : seconds(date));

export function endpointMessage(e: WebhookEndpoint): MessageInitShape<typeof EndpointSchema> {
  return {
    id: e.id,
    url: e.url,
    description: e.description ?? undefined,
    enabledEvents: [...e.enabledEvents],
    status: e.status,
    disabledReason: e.disabledReason ?? undefined,
    disabledAt: optionalSeconds(e.disabledAt),
    livemode: e.livemode,
    created: seconds(e.createdAt),
    failingSince: optionalSeconds(e.failingSince),
    lastSuccessAt: optionalSeconds(e.lastSuccessAt),
  };
}

export function eventMessage(e: StoredEvent): MessageInitShape<typeof EventSchema> {
  return {
    id: e.id,
    type: e.type,
    created: BigInt(e.body.created),
    livemode: e.livemode,
    paymentId: e.paymentId ?? undefined,
    body: JSON.stringify(e.body),
  };
}

export function attemptMessage(a: AttemptLogEntry): MessageInitShape<typeof DeliveryAttemptSchema> {
  return {
    id: a.id,
    eventId: a.eventId,
    endpointId: a.endpointId,
    deliveryId: a.deliveryId,
    attemptNumber: a.attemptNumber,
    attemptedAt: BigInt(a.attemptedAt.getTime()),
    statusCode: a.statusCode ?? undefined,
    error: a.error ?? undefined,
    succeeded: a.succeeded,
    latencyMs: a.latencyMs,
    requestBody: a.requestBody,
    responseSnippet: a.responseSnippet ?? undefined,
    nextAttemptAt: a.nextAttemptAt === null ? undefined : BigInt(a.nextAttemptAt.getTime()),
  };
}

export function checkReportMessage(report: EndpointCheckReport): MessageInitShape<typeof CheckEndpointResponseSchema> {
  return {
    endpointId: report.endpoint.id,
    url: report.endpoint.url,
    created: seconds(report.created),
    timeoutMs: report.timeoutMs,
    checks: report.checks.map((c) => ({
      id: c.id,
      title: c.title,
      passed: c.passed,
      expected: c.expected,
      statusCode: c.statusCode ?? undefined,
      error: c.error ?? undefined,
      latencyMs: c.latencyMs,
      explanation: c.explanation,
      guide: c.guide,
    })),
  };
}
