import { ApiError } from '@hc/errors';
import { currentTraceparent } from '@hc/events';
import { newId } from '@hc/ids';
import type { Scope } from '../domain/endpoint.ts';
import { webhookEventBody } from '../domain/webhook-event.ts';
import type { StoredEvent } from '../domain/event-log.ts';
import { getEndpoint, refuseRemovedMeanwhile } from './get-endpoint.ts';
import type { WebhooksDependencies } from './dependencies.ts';

/** A `ping` event (data.payment null, a new `evt_` id) delivered to one endpoint, Test or Live alike. */
export async function sendPing(deps: WebhooksDependencies, scope: Scope, endpointId: string): Promise<StoredEvent> {
  const endpoint = await getEndpoint(deps, scope, endpointId);
  if (endpoint.status !== 'enabled') throw new ApiError('endpoint_disabled', undefined, 'endpoint_id');
  const now = deps.now();
  const body = webhookEventBody(newId('event', now.getTime()), 'ping', now.getTime(), scope.livemode, null);
  // The ping's delivery continues the trace of the API call that asked for it.
  const event = await deps.events.recordPing(scope, endpoint.id, body, now, currentTraceparent());
  // Disabled or deleted since it was read just above: refused as a ping asked now would be.
  if (!event) return refuseRemovedMeanwhile(deps, scope, endpoint.id);
  deps.wakeWorker();
  return event;
}
