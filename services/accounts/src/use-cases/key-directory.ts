import type { ApiKeyRecord, MerchantAccount } from '../domain/merchant-account.ts';
import type { AccountChange, ChangeFeed } from '../store/change-feed.ts';
import type { MerchantStore } from '../store/merchant-store.ts';

/** What the gateway's key cache reads (docs/adr/0085). */
export interface KeyDirectoryDependencies {
  readonly store: Pick<MerchantStore, 'findKeyByHash'>;
  readonly changes: ChangeFeed;
}

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
