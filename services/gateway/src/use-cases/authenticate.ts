import { ApiError } from '@hc/errors';
import { bearerToken, hashApiKey, isWellFormedApiKey } from '../domain/api-key.ts';
import type { MerchantAccount } from '../domain/merchant-account.ts';
import type { MerchantStore } from '../store/merchant-store.ts';

type FoundKey = NonNullable<Awaited<ReturnType<MerchantStore['findKeyByHash']>>>;

/**
 * What authentication reads: an API key (and its account) by the key's hash; the key cache also
 * offers what it holds now, before its sync (peekKeyByHash).
 */
export type KeyDirectory = Pick<MerchantStore, 'findKeyByHash'> & {
  readonly peekKeyByHash?: (keyHash: string) => FoundKey | undefined;
};

export interface Caller {
  readonly account: MerchantAccount;
  readonly livemode: boolean;
  readonly keyId: string;
}

/**
 * Resolves an Authorization header to (account, mode). The key alone decides both. The lookup may be
 * the key cache, whose entries are dropped when PostgreSQL announces a change to the key or its
 * account: a revocation or suspension takes effect on the next request (docs/adr/0027).
 */
export async function authenticate(store: KeyDirectory, authorization: string | undefined): Promise<Caller> {
  return callerOf(await store.findKeyByHash(keyHashOf(authorization)));
}

/**
 * Authentication and, beside it, a guess at its answer that needs no round trip: the caller the key
 * cache holds now, which a change notice not yet read may have made stale. The guess lets a read by id
 * start its work while `caller` waits for the cache's sync (docs/adr/0067); only `caller` is the
 * verdict, and work started on a guess is used only if `caller` names the same account and mode.
 * A malformed key throws here, at once, as authenticate rejects it.
 */
export function authenticateAhead(
  store: KeyDirectory,
  authorization: string | undefined,
): { guess: Caller | undefined; caller: Promise<Caller> } {
  const keyHash = keyHashOf(authorization);
  const cached = store.peekKeyByHash?.(keyHash);
  return { guess: cached && guessOf(cached), caller: store.findKeyByHash(keyHash).then(callerOf) };
}

/** The caller a cached entry names, or no guess where authentication would refuse the key. */
function guessOf(cached: FoundKey): Caller | undefined {
  try {
    return callerOf(cached);
  } catch {
    return undefined;
  }
}

function keyHashOf(authorization: string | undefined): string {
  const token = bearerToken(authorization);
  if (token === undefined || !isWellFormedApiKey(token)) throw new ApiError('invalid_api_key');
  // Looked up by its sha256: the secret itself is never compared, so its bytes cannot leak by timing.
  return hashApiKey(token);
}

function callerOf(found: FoundKey | null): Caller {
  if (!found || found.key.revokedAt !== null) throw new ApiError('invalid_api_key');
  if (found.account.status === 'suspended') throw new ApiError('suspended');
  return { account: found.account, livemode: found.key.mode === 'live', keyId: found.key.id };
}
