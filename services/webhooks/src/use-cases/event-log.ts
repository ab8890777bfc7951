import { ApiError } from '@hc/errors';
import type { Scope } from '../domain/endpoint.ts';
import { isPaymentEventType } from '../domain/event-types.ts';
import type { AttemptLogEntry, StoredEvent } from '../domain/event-log.ts';
import type { WebhooksDependencies } from './dependencies.ts';
import { fromUnixSeconds } from '@hc/conversions';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** What a listing asks for beyond paging: a type, a creation window in Unix seconds, a maximum age. */
export interface EventQuery {
  readonly type?: string | undefined;
  readonly createdGte?: bigint | undefined;
  readonly createdLt?: bigint | undefined;
  /** Seconds; 0 = every stored event (operator CLI), the public API passes 30 days. */
  readonly maxAgeSeconds?: bigint | undefined;
  /** Only this payment's events. */
  readonly paymentId?: string | undefined;
}

const fromSeconds = (value: bigint | undefined): Date | undefined => (value === undefined ? undefined : fromUnixSeconds(value));

function notBefore(deps: WebhooksDependencies, maxAgeSeconds: bigint | undefined): Date | undefined {
  if (maxAgeSeconds === undefined || maxAgeSeconds <= 0n) return undefined;
  return new Date(deps.now().getTime() - Number(maxAgeSeconds) * 1000);
}

/** The scope's events, newest first, `limit` at a time (0 = the default of 20). */
export async function listEvents(
  deps: WebhooksDependencies,
  scope: Scope,
  limit: number,
  startingAfter: string | undefined,
  query: EventQuery = {},
): Promise<{ events: StoredEvent[]; hasMore: boolean }> {
  const size = limit === 0 ? DEFAULT_LIMIT : limit;
  if (!Number.isInteger(size) || size < 1 || size > MAX_LIMIT) throw new ApiError('invalid_limit', undefined, 'limit');
  if (query.type !== undefined && query.type !== 'ping' && !isPaymentEventType(query.type)) {
    throw new ApiError('invalid_event_types', `Unknown event type: ${query.type}.`, 'type');
  }
  const page = await deps.events.list(scope, size, startingAfter, {
    type: query.type,
    createdGte: fromSeconds(query.createdGte),
    createdLt: fromSeconds(query.createdLt),
    notBefore: notBefore(deps, query.maxAgeSeconds),
    paymentId: query.paymentId,
  });
  if (!page) throw new ApiError('invalid_cursor', undefined, 'starting_after');
  return page;
}

/**
 * The listener's view (GET /v1/listen): events recorded after `afterId`, oldest first, once they are
 * `settleMs` old (ADR 0046: a sequence number is taken before its transaction commits, so a listener
 * that skipped past a younger committed row could miss an older one still committing).
 */
export async function listEventsAfter(
  deps: WebhooksDependencies,
  scope: Scope,
  request: { limit: number; afterId: string | undefined; maxAgeSeconds: bigint; settleMs: number },
): Promise<{ events: StoredEvent[]; hasMore: boolean }> {
  const size = request.limit === 0 ? DEFAULT_LIMIT : request.limit;
  if (!Number.isInteger(size) || size < 1 || size > MAX_LIMIT) throw new ApiError('invalid_limit', undefined, 'limit');
  const settledBefore = new Date(deps.now().getTime() - request.settleMs);
  const page = await deps.events.listAfter(scope, size, request.afterId, {
    notBefore: notBefore(deps, request.maxAgeSeconds),
    settledBefore,
  });
  if (!page) throw new ApiError('invalid_cursor', undefined, 'after');
  return page;
}

/** The newest event's id within `maxAgeSeconds` (0 = any age), or null. */
export function latestEventId(deps: WebhooksDependencies, scope: Scope, maxAgeSeconds: bigint): Promise<string | null> {
  return deps.events.latestId(scope, notBefore(deps, maxAgeSeconds));
}

/** One event of the scope, within `maxAgeSeconds` (0 = any age); another scope's is not_found. */
export async function getEvent(deps: WebhooksDependencies, scope: Scope, id: string, maxAgeSeconds: bigint): Promise<StoredEvent> {
  const event = await deps.events.find(scope, id, notBefore(deps, maxAgeSeconds));
  if (!event) throw new ApiError('not_found', 'No such event.');
  return event;
}

export async function listDeliveryAttempts(deps: WebhooksDependencies, scope: Scope, eventId: string): Promise<AttemptLogEntry[]> {
  const attempts = await deps.deliveries.listAttempts(scope, eventId);
  if (!attempts) throw new ApiError('not_found', 'No such event.', 'event_id');
  return attempts;
}
