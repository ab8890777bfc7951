import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '@hc/errors';
import type { ApiKeyRecord, MerchantAccount } from '../domain/merchant-account.ts';
import type { AccountChange, ChangeFeed } from '../store/change-feed.ts';
import type { KeyCacheLeases } from '../store/key-cache-leases.ts';
import type { KeyCachesCaughtUp, MerchantStore } from '../store/merchant-store.ts';

/** What the gateway's key cache reads (docs/adr/0085, 0108). */
export interface KeyDirectoryDependencies {
  readonly store: Pick<MerchantStore, 'findKeyByHash'>;
  readonly changes: ChangeFeed;
  readonly leases: Pick<KeyCacheLeases, 'hold' | 'behind'>;
}

/**
 * The longest lease a key cache is granted: the longest a change waits for a gateway that stopped
 * answering (it is answered once that gateway's lease has run out, when the gateway itself no longer
 * uses what it cached).
 */
export const MAX_LEASE_MS = 3_000;
/**
 * The longest a change waits for the caches: past every lease, with a second to spare, and within the
 * usual 5 s deadline of the dashboard's and the operator's calls, so they see the refusal below.
 */
const MAX_WAIT_MS = MAX_LEASE_MS + 1_000;
/** How often a waiting change looks at the leases again (a cache reports within a renewal, ~100 ms). */
const RECHECK_MS = 5;

export type { AccountChange };

/** Most changes one answer lists; a cache further behind forgets everything instead (`reset`). */
export const MAX_CHANGES_PER_ANSWER = 1000;

/**
 * The key with this hash and its account, and a position the answer is at least as new as: the
 * position is read first, so every change up to it is in what the key read sees. A cache stores the
 * answer only if it has applied no change after that position (else the answer may predate one).
 */
export async function findKeyByHash(
  deps: KeyDirectoryDependencies,
  keyHash: string,
): Promise<{ found: { key: ApiKeyRecord; account: MerchantAccount } | null; position: bigint }> {
  const position = await deps.changes.position();
  return { found: await deps.store.findKeyByHash(keyHash), position };
}

/**
 * The changes after `after` and the position they reach; with no `after`, none and the current
 * position. A cache so far behind that the changes do not fit one answer is told to reset.
 */
export async function changesAfter(
  deps: KeyDirectoryDependencies,
  after: bigint | undefined,
): Promise<{ changes: AccountChange[]; position: bigint; reset: boolean }> {
  if (after === undefined) return { changes: [], position: await deps.changes.position(), reset: false };
  const changes = await deps.changes.after(after, MAX_CHANGES_PER_ANSWER + 1);
  if (changes.length > MAX_CHANGES_PER_ANSWER) return { changes: [], position: await deps.changes.position(), reset: true };
  return { changes, position: changes.at(-1)?.position ?? after, reset: false };
}

/**
 * Holds or extends a cache's lease (docs/adr/0108): records the position it reports applied, then
 * answers the changes after it. In that order, so that a change that committed before this call's read
 * of the feed is in the answer, and one that committed after it sees the lease with its old position
 * and waits for the cache's next call.
 */
export async function holdLease(
  deps: KeyDirectoryDependencies,
  request: { cacheId: string; applied: bigint | undefined; leaseMs: number; renewal: bigint },
): Promise<{ changes: AccountChange[]; position: bigint; reset: boolean; leaseMs: number }> {
  if (request.cacheId.length === 0 || request.cacheId.length > 100)
    throw new ApiError('invalid_request', 'cache_id must be 1 to 100 characters.', 'cache_id');
  if (!Number.isInteger(request.leaseMs) || request.leaseMs < 0)
    throw new ApiError('invalid_request', 'lease_ms must be a whole number of milliseconds, 0 or more.', 'lease_ms');
  const leaseMs = Math.min(request.leaseMs, MAX_LEASE_MS);
  const recorded = await deps.leases.hold(request.cacheId, request.applied, leaseMs, request.renewal);
  // A call overtaken by a later one of the same cache (which the cache gave up on): nothing granted.
  if (recorded === undefined) return { changes: [], position: request.applied ?? 0n, reset: false, leaseMs: 0 };
  if (request.applied === undefined) return { changes: [], position: recorded, reset: false, leaseMs };
  return { ...(await changesAfter(deps, request.applied)), leaseMs };
}

/**
 * Waits until no cache holding a lease is behind the newest change (docs/adr/0108): a change calls this
 * after it committed and before it is answered. Bounded by the leases: a cache that stops reporting is
 * no longer waited for once its lease has run out. A cache that kept renewing without applying would
 * hold the change forever, so past the longest lease (and a second) the change is answered unavailable
 * instead (it is committed; its caller may ask again).
 */
export function keyCachesCaughtUp(deps: Pick<KeyDirectoryDependencies, 'changes' | 'leases'>): KeyCachesCaughtUp {
  return {
    async caughtUp() {
      const position = await deps.changes.position();
      const deadline = performance.now() + MAX_WAIT_MS;
      while ((await deps.leases.behind(position)) > 0) {
        if (performance.now() > deadline)
          throw new ApiError('service_unavailable', 'The change is saved, but not every gateway has applied it yet. Try again.');
        await sleep(RECHECK_MS);
      }
    },
  };
}
