import { ApiError } from '@hc/errors';
import { bearerToken, hashApiKey, isWellFormedApiKey } from '../domain/bearer-key.ts';

/**
 * What authentication needs of a key and its account, as the accounts context answers them
 * (KeyDirectoryService.FindKeyByHash, docs/adr/0085): the gateway owns no account data.
 */
export interface KeyEntry {
  readonly key: { readonly id: string; readonly accountId: string; readonly mode: 'test' | 'live'; readonly revokedAt: Date | null };
  /** The account as accounts answered it: checkout gets its wallet, fee and name at a create (AccountSnapshot). */
  readonly account: {
    readonly id: string;
    readonly status: 'active' | 'suspended';
    readonly name: string;
    readonly payoutWallet: string | null;
    readonly feeBps: number;
  };
}

/** What authentication reads: an API key (and its account) by the key's hash. */
export interface KeyDirectory {
  findKeyByHash(keyHash: string): Promise<KeyEntry | null>;
}

export interface Caller {
  readonly account: KeyEntry['account'];
  readonly livemode: boolean;
  readonly keyId: string;
}

/**
 * Resolves an Authorization header to (account, mode). The key alone decides both. The lookup is the
 * key cache, which drops an entry once the accounts context lists a change to the key or its account,
 * and uses its entries only under a lease that accounts' changes wait for: a revocation or suspension
 * takes effect on the next request (docs/adr/0085, 0108).
 */
export async function authenticate(store: KeyDirectory, authorization: string | undefined): Promise<Caller> {
  return callerOf(await store.findKeyByHash(keyHashOf(authorization)));
}

function keyHashOf(authorization: string | undefined): string {
  const token = bearerToken(authorization);
  if (token === undefined || !isWellFormedApiKey(token)) throw new ApiError('invalid_api_key');
  // Looked up by its sha256: the secret itself is never compared, so its bytes cannot leak by timing.
  return hashApiKey(token);
}

function callerOf(found: KeyEntry | null): Caller {
  if (!found || found.key.revokedAt !== null) throw new ApiError('invalid_api_key');
  if (found.account.status === 'suspended') throw new ApiError('suspended');
  return { account: found.account, livemode: found.key.mode === 'live', keyId: found.key.id };
}
