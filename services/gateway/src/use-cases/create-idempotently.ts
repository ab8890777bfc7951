import { ApiError } from '@hc/errors';
import type { CallContext } from '@hc/grpc';
import { newId, type IdKind } from '@hc/ids';
import { IDEMPOTENCY_TTL_MS, requestHash, type IdempotentCreate } from '../domain/idempotency.ts';
import type { IdempotencyScope, IdempotencyStore } from '../store/idempotency-store.ts';

export interface IdempotencySettings {
  readonly now: () => Date;
  /** How long the request that owns a key may take before a retry may take over. */
  readonly lockMs: number;
  /** How long a concurrent duplicate waits for the first request before answering 409. */
  readonly waitMs: number;
}

export interface IdempotencyDependencies {
  readonly idempotency: IdempotencyStore;
  readonly settings: IdempotencySettings;
}

/**
 * One create, as the idempotency flow needs it. The owning service must make an object with a preset
 * id at most once in the caller's account and mode, and answer a create whose id it made already with
 * that object (`created: false`), even where a new create would now be refused (docs/adr/0070).
 */
export interface CreateOperation<T> {
  readonly create: IdempotentCreate;
  /** The kind of id the object gets (chosen here, before the service is called). */
  readonly idKind: IdKind;
  /** What a retry is compared on: the fields sent to the service, without the account snapshot. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** Creates with this id (a fresh one of the service's own when undefined). */
  make(id: string | undefined): Promise<{ object: T; created: boolean }>;
  /** The object with this id in the caller's account and mode; null while nobody has made it. */
  find(id: string): Promise<T | null>;
}

export interface CreatedObject<T> {
  readonly object: T;
  /** 201 for the request that created the object, 200 for every replay. */
  readonly status: 201 | 200;
}

/**
 * Makes a /v1 create happen at most once per (account, mode, Idempotency-Key) when a key is given: the
 * small state machine of the spec's idempotency table, the one for every create (sessions, payment
 * links, webhook endpoints). A new key claims a record holding an id chosen up front and creates with
 * it; the record is not written again (docs/adr/0070): the object's existence in its service is what
 * says the create is done. The same key and body later answers the same object (read fresh, so as it
 * is now); another body, or another create, is `idempotency_conflict`; a duplicate that finds no
 * object yet waits for the owner while its lock holds. If the owner dies mid-way, a retry after the
 * lock takes over and creates with the same id, which the service answers with the object it may
 * already have made. A refused request (4xx) is forgotten, not remembered. Exactness under races rests
 * on the store's claim (one INSERT … ON CONFLICT … WHERE expired, shared by the claims of a group,
 * docs/adr/0062), the take-over (one conditional UPDATE) and the service's create with a preset id.
 */
export async function createIdempotently<T>(
  deps: IdempotencyDependencies,
  ctx: CallContext,
  idempotencyKey: string | undefined,
  operation: CreateOperation<T>,
): Promise<CreatedObject<T>> {
  if (idempotencyKey === undefined) return { object: (await operation.make(undefined)).object, status: 201 };

  const { idempotency: store, settings } = deps;
  const scope: IdempotencyScope = { accountId: ctx.accountId, livemode: ctx.livemode, key: idempotencyKey };
  const hash = requestHash(operation.create, operation.fields);
  const waitUntil = settings.now().getTime() + settings.waitMs;
  for (;;) {
    const now = settings.now();
    const objectId = newId(operation.idKind, now.getTime());
    const claimed = await store.claim(
      scope,
      {
        requestHash: hash,
        objectId,
        lockedUntil: new Date(now.getTime() + settings.lockMs),
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      },
      now,
    );
    // 201 only if this create wrote the object: an owner whose lock ran out while it was slow may
    // find that a retry, having taken over, created the object with the same id first.
    if (claimed) return answered(await makeOwned(deps, scope, objectId, operation));

    const record = await store.find(scope);
    if (!record) continue; // forgotten or expired between the two statements: claim again
    if (record.requestHash !== hash) {
      throw new ApiError('idempotency_conflict', 'This Idempotency-Key was already used with a different request.');
    }
    // Made already (by the owner, or by one that took over): the same object, as it is now.
    const made = await operation.find(record.objectId);
    if (made !== null) return { object: made, status: 200 };
    if (await store.takeOver(scope, record.objectId, now, new Date(now.getTime() + settings.lockMs))) {
      return answered(await makeOwned(deps, scope, record.objectId, operation));
    }
    if (settings.now().getTime() >= waitUntil) {
      throw new ApiError('idempotency_conflict', 'A request with this Idempotency-Key is still running; retry shortly.');
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const answered = <T>({ object, created }: { object: T; created: boolean }): CreatedObject<T> => ({ object, status: created ? 201 : 200 });

/**
 * Creates under a claimed (or taken-over) key. Nothing is recorded after the create: the object
 * itself tells a duplicate it is done (docs/adr/0070). A refusal forgets the key; any other failure
 * releases it, so the next retry takes over at once (the create may or may not have happened).
 */
async function makeOwned<T>(
  deps: IdempotencyDependencies,
  scope: IdempotencyScope,
  objectId: string,
  operation: CreateOperation<T>,
): Promise<{ object: T; created: boolean }> {
  try {
    return await operation.make(objectId);
  } catch (error) {
    if (error instanceof ApiError && error.httpStatus < 500) await deps.idempotency.forget(scope, objectId);
    else await deps.idempotency.release(scope, deps.settings.now());
    throw error;
  }
}

/** `find` for services that answer an id nobody made (in the caller's scope) with not_found. */
export async function unlessNotFound<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    throw error;
  }
}
