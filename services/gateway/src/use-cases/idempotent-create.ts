import { ApiError } from '@hc/errors';
import { newId } from '@hc/ids';
import { IDEMPOTENCY_TTL_MS } from '../domain/idempotency.ts';
import type { IdempotencyScope, IdempotencyStore } from '../store/idempotency-store.ts';

export interface IdempotencySettings {
  readonly now: () => Date;
  /** How long the request that owns a key may take before a retry may take over. */
  readonly lockMs: number;
  /** How long a concurrent duplicate waits for the first request before answering 409. */
  readonly waitMs: number;
}

export interface Created<T> {
  readonly value: T;
  /** 201 for the request that created the session, 200 for every replay. */
  readonly status: 201 | 200;
}

/**
 * Runs a create at most once per (account, mode, key), the small state machine of the spec's
 * idempotency table: a new key claims a record (running) holding a session id chosen up front, calls
 * `create` with it, and marks the record done; the same key and body later answers the same session
 * (read fresh, so with its current status); another body is `idempotency_conflict`; a duplicate
 * arriving while the first still runs waits for it. If the owner dies mid-way, a retry after the
 * lock takes over and creates with the same id, which the checkout service answers with the session
 * it may already have made. A refused request (4xx) is forgotten, not remembered.
 */
export async function idempotentCreate<T>(
  store: IdempotencyStore,
  settings: IdempotencySettings,
  scope: IdempotencyScope,
  requestHash: string,
  create: (sessionId: string) => Promise<{ value: T; created: boolean }>,
  read: (sessionId: string) => Promise<T>,
): Promise<Created<T>> {
  const waitUntil = settings.now().getTime() + settings.waitMs;
  for (;;) {
    const now = settings.now();
    const sessionId = newId('payment', now.getTime());
    const claimed = await store.claim(
      scope,
      {
        requestHash,
        sessionId,
        state: 'running',
        lockedUntil: new Date(now.getTime() + settings.lockMs),
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      },
      now,
    );
    if (claimed) return { value: (await run(store, settings, scope, sessionId, create)).value, status: 201 };

    const record = await store.find(scope);
    if (!record) continue; // forgotten or expired between the two statements: claim again
    if (record.requestHash !== requestHash) {
      throw new ApiError('idempotency_conflict', 'This Idempotency-Key was already used with a different request body.');
    }
    if (record.state === 'done') return { value: await read(record.sessionId), status: 200 };
    if (await store.takeOver(scope, now, new Date(now.getTime() + settings.lockMs))) {
      const result = await run(store, settings, scope, record.sessionId, create);
      return { value: result.value, status: result.created ? 201 : 200 };
    }
    if (settings.now().getTime() >= waitUntil) {
      throw new ApiError('idempotency_conflict', 'A request with this Idempotency-Key is still running; retry shortly.');
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function run<T>(
  store: IdempotencyStore,
  settings: IdempotencySettings,
  scope: IdempotencyScope,
  sessionId: string,
  create: (sessionId: string) => Promise<{ value: T; created: boolean }>,
): Promise<{ value: T; created: boolean }> {
  try {
    const result = await create(sessionId);
    await store.complete(scope, sessionId);
    return result;
  } catch (error) {
    if (error instanceof ApiError && error.httpStatus < 500) await store.forget(scope, sessionId);
    else await store.release(scope, settings.now());
    throw error;
  }
}
