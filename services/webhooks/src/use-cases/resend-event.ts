import { ApiError } from '@hc/errors';
import type { Scope } from '../domain/endpoint.ts';
import type { StoredEvent } from '../domain/event-log.ts';
import { getEndpoint, refuseRemovedMeanwhile } from './get-endpoint.ts';
import type { WebhooksDependencies } from './dependencies.ts';

/**
 * Delivers an event again — the same body, the same `evt_` id — to one endpoint of the scope (its
 * filter notwithstanding: the merchant asked for it), or to every enabled endpoint whose filter
 * matches now. Each gets a new delivery with a fresh retry schedule.
 */
export async function resendEvent(
  deps: WebhooksDependencies,
  scope: Scope,
  eventId: string,
  endpointId: string | undefined,
): Promise<{ event: StoredEvent; endpointIds: string[] }> {
  const event = await deps.events.find(scope, eventId);
  if (!event) throw new ApiError('not_found', 'No such event.', 'event_id');
  let endpointIds: string[];
  if (endpointId !== undefined) {
    const endpoint = await getEndpoint(deps, scope, endpointId);
    if (endpoint.status !== 'enabled') throw new ApiError('endpoint_disabled', undefined, 'endpoint_id');
    endpointIds = [endpoint.id];
  } else {
    endpointIds = await deps.events.matching(scope, event.type);
  }
  // An endpoint disabled or deleted since it was read gets nothing: a named one is refused as it would
  // be now (endpoint_disabled, or not_found once deleted), and the others are left out of the answer
  // (which keeps their order).
  const queuedIds = await deps.events.resend(event.id, endpointIds, deps.now());
  if (queuedIds === null) throw new ApiError('not_found', 'No such event.', 'event_id'); // purged meanwhile
  const queued = new Set(queuedIds);
  if (endpointId !== undefined && queued.size === 0) await refuseRemovedMeanwhile(deps, scope, endpointId);
  if (queued.size > 0) deps.wakeWorker();
  return { event, endpointIds: endpointIds.filter((id) => queued.has(id)) };
}
