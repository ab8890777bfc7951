import type { JsonObject } from '@bufbuild/protobuf';
import { ENDPOINT_ALERT, endpointAlertSubject, eventPayload, type EndpointAlertType } from '@hc/events/contracts';
import { isFailingTooLong } from './attempt-outcome.ts';

/** The endpoint as an alert needs it. */
export interface AlertedEndpoint {
  readonly id: string;
  readonly accountId: string;
  readonly livemode: boolean;
  readonly url: string;
  readonly status: string;
  readonly disabledReason: string | null;
  readonly failingSince: Date | null;
  readonly failingAlertedAt: Date | null;
}

/** One outbox row: what is published, under which subject and message id. */
export interface EndpointAlertMessage {
  readonly msgId: string;
  readonly subject: string;
  readonly payload: JsonObject;
}

/**
 * What a failed attempt tells the merchant, if anything (docs/adr/0049): `endpoint.disabled` when the
 * platform just disabled the endpoint (410 or failing too long; an operator's disable is their own
 * act), else `endpoint.failing` once per failing streak that reached `alertAfterMs`. The message id
 * is derived from the streak or the disabling, so a retried transaction publishes nothing twice.
 */
export function endpointAlert(
  endpoint: AlertedEndpoint,
  justDisabled: boolean,
  now: Date,
  alertAfterMs: number,
): EndpointAlertMessage | null {
  let type: EndpointAlertType;
  let idPart: number;
  if (justDisabled && (endpoint.disabledReason === 'gone' || endpoint.disabledReason === 'failing')) {
    type = 'endpoint.disabled';
    idPart = now.getTime();
  } else if (
    endpoint.status === 'enabled' &&
    endpoint.failingSince !== null &&
    isFailingTooLong(endpoint.failingSince, now, alertAfterMs) &&
    (endpoint.failingAlertedAt === null || endpoint.failingAlertedAt < endpoint.failingSince)
  ) {
    type = 'endpoint.failing';
    idPart = endpoint.failingSince.getTime();
  } else return null;
  const msgId = `${endpoint.id}.${type.slice('endpoint.'.length)}.${idPart}`;
  return {
    msgId,
    subject: endpointAlertSubject(type, endpoint.id),
    payload: eventPayload(ENDPOINT_ALERT, {
      id: msgId,
      type,
      occurredAt: now.getTime(),
      accountId: endpoint.accountId,
      livemode: endpoint.livemode,
      endpointId: endpoint.id,
      url: endpoint.url,
      disabledReason: type === 'endpoint.disabled' ? (endpoint.disabledReason ?? '') : '',
      failingSince: endpoint.failingSince === null ? null : endpoint.failingSince.getTime(),
    }),
  };
}
