import { ApiError } from '@hc/errors';
import type { CallContext, ServiceClient } from '@hc/grpc';
import { newId } from '@hc/ids';
import type { CheckoutService, CheckoutSession, CreateCheckoutSessionRequest } from '@hc/proto/checkout/v1';
import { IDEMPOTENCY_TTL_MS, requestHash } from '../domain/idempotency.ts';
import type { IdempotencyScope, IdempotencyStore } from '../store/idempotency-store.ts';

type CheckoutClient = ServiceClient<typeof CheckoutService>;
// The plain-object form of the request (not the generated message class).
type CreateRequest = Exclude<Parameters<CheckoutClient['createCheckoutSession']>[0], CreateCheckoutSessionRequest>;

/** What the merchant asked for: the fields retries are compared on (no id, no account snapshot). */
export type SessionFields = Omit<CreateRequest, 'id' | 'account'>;
/** What checkout needs to know of the account, from the gateway that owns accounts. */
export type AccountSnapshot = NonNullable<CreateRequest['account']>;

export interface IdempotencySettings {
  readonly now: () => Date;
  /** How long the request that owns a key may take before a retry may take over. */
  readonly lockMs: number;
  /** How long a concurrent duplicate waits for the first request before answering 409. */
  readonly waitMs: number;
}

export interface CreateSessionDependencies {
  readonly checkout: CheckoutClient;
  readonly idempotency: IdempotencyStore;
  readonly settings: IdempotencySettings;
}

export interface CreatedSession {
  readonly session: CheckoutSession;
  /** 201 for the request that created the session, 200 for every replay. */
  readonly status: 201 | 200;
}

/**
 * Creates a checkout session, at most once per (account, mode, Idempotency-Key) when a key is given:
 * the small state machine of the spec's idempotency table. A new key claims a record holding a session
 * id chosen up front and creates with it; the record is not written again (docs/adr/0070): the
 * session's existence in checkout is what says the create is done. The same key and body later
 * answers the same session (read fresh, so with its current status); another body is
 * `idempotency_conflict`; a duplicate that finds no session yet waits for the owner while its lock
 * holds. If the owner dies mid-way, a retry after the lock takes over and creates with the same id,
 * which the checkout service answers with the session it may already have made. A refused request
 * (4xx) is forgotten, not remembered. Exactness under races rests on the store's claim (one INSERT …
 * ON CONFLICT … WHERE expired, shared by the claims of a group), the take-over (one conditional
 * UPDATE) and checkout's create with a preset id, which writes a session at most once. Claims and
 * creates of concurrent requests share statements (docs/adr/0062); each request gets its own answer.
 */
export async function createCheckoutSession(
  deps: CreateSessionDependencies,
  ctx: CallContext,
  request: { fields: SessionFields; account: AccountSnapshot; idempotencyKey: string | undefined },
): Promise<CreatedSession> {
  const { fields, account, idempotencyKey } = request;
  if (idempotencyKey === undefined) return { session: (await create(deps, ctx, fields, account, undefined)).session, status: 201 };

  const { idempotency: store, settings } = deps;
  const scope: IdempotencyScope = { accountId: ctx.accountId, livemode: ctx.livemode, key: idempotencyKey };
  const hash = requestHash(fields);
  const waitUntil = settings.now().getTime() + settings.waitMs;
  for (;;) {
    const now = settings.now();
    const sessionId = newId('payment', now.getTime());
    const claimed = await store.claim(
      scope,
      {
        requestHash: hash,
        sessionId,
        lockedUntil: new Date(now.getTime() + settings.lockMs),
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      },
      now,
    );
    if (claimed) {
      // 201 only if this create wrote the session: an owner whose lock ran out while it was slow may
      // find that a retry, having taken over, created the session with the same id first.
      const result = await createOwned(deps, ctx, scope, sessionId, fields, account);
      return { session: result.session, status: result.created ? 201 : 200 };
    }

    const record = await store.find(scope);
    if (!record) continue; // forgotten or expired between the two statements: claim again
    if (record.requestHash !== hash) {
      throw new ApiError('idempotency_conflict', 'This Idempotency-Key was already used with a different request body.');
    }
    // Made already (by the owner, or by one that took over): the same session, as it is now.
    const made = await findSession(deps, ctx, record.sessionId);
    if (made) return { session: made, status: 200 };
    if (await store.takeOver(scope, record.sessionId, now, new Date(now.getTime() + settings.lockMs))) {
      const result = await createOwned(deps, ctx, scope, record.sessionId, fields, account);
      return { session: result.session, status: result.created ? 201 : 200 };
    }
    if (settings.now().getTime() >= waitUntil) {
      throw new ApiError('idempotency_conflict', 'A request with this Idempotency-Key is still running; retry shortly.');
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function create(
  deps: CreateSessionDependencies,
  ctx: CallContext,
  fields: SessionFields,
  account: AccountSnapshot,
  id: string | undefined,
): Promise<{ session: CheckoutSession; created: boolean }> {
  const { session, created } = await deps.checkout.createCheckoutSession({ ...fields, account, id }, ctx);
  if (!session) throw new ApiError('internal_error');
  return { session, created };
}

/** The session with this id in the caller's scope; null while nobody has created it. */
async function findSession(deps: CreateSessionDependencies, ctx: CallContext, id: string): Promise<CheckoutSession | null> {
  try {
    const { session } = await deps.checkout.getCheckoutSession({ id }, ctx);
    if (!session) throw new ApiError('internal_error');
    return session;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    throw error;
  }
}

/**
 * Creates under a claimed (or taken-over) key. Nothing is recorded after the create: the session
 * itself tells a duplicate it is done (docs/adr/0070). A refusal forgets the key; any other failure
 * releases it, so the next retry takes over at once (the create may or may not have happened).
 */
async function createOwned(
  deps: CreateSessionDependencies,
  ctx: CallContext,
  scope: IdempotencyScope,
  sessionId: string,
  fields: SessionFields,
  account: AccountSnapshot,
): Promise<{ session: CheckoutSession; created: boolean }> {
  try {
    return await create(deps, ctx, fields, account, sessionId);
  } catch (error) {
    if (error instanceof ApiError && error.httpStatus < 500) await deps.idempotency.forget(scope, sessionId);
    else await deps.idempotency.release(scope, deps.settings.now());
    throw error;
  }
}
