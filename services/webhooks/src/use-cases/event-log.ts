import { ApiError } from '@hc/errors';
import type { Scope } from '../domain/endpoint.ts';
import type { AttemptLogEntry } from '../store/deliveries.ts';
import type { StoredEvent } from '../store/events.ts';
import type { WebhooksDependencies } from './dependencies.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** The scope's events, newest first, `limit` at a time (0 = the default of 20). */
export async function listEvents(
  deps: WebhooksDependencies,
  scope: Scope,
  limit: number,
  startingAfter: string | undefined,
): Promise<{ events: StoredEvent[]; hasMore: boolean }> {
  const size = limit === 0 ? DEFAULT_LIMIT : limit;
  if (!Number.isInteger(size) || size < 1 || size > MAX_LIMIT) throw new ApiError('invalid_limit', undefined, 'limit');
  const page = await deps.events.list(scope, size, startingAfter);
  if (!page) throw new ApiError('invalid_cursor', undefined, 'starting_after');
  return page;
}

export async function listDeliveryAttempts(deps: WebhooksDependencies, scope: Scope, eventId: string): Promise<AttemptLogEntry[]> {
  const attempts = await deps.deliveries.listAttempts(scope, eventId);
  if (!attempts) throw new ApiError('not_found', 'No such event.', 'event_id');
  return attempts;
}
