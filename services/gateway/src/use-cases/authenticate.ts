import { ApiError } from '@hc/errors';
import { bearerToken, hashApiKey, isWellFormedApiKey } from '../domain/api-key.ts';
import type { MerchantAccount } from '../domain/merchant-account.ts';
import type { MerchantStore } from '../store/merchant-store.ts';

/** What authentication reads: an API key (and its account) by the key's hash. */
export type KeyDirectory = Pick<MerchantStore, 'findKeyByHash'>;

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
  const token = bearerToken(authorization);
  if (token === undefined || !isWellFormedApiKey(token)) throw new ApiError('invalid_api_key');
  const keyHash = hashApiKey(token);
  // Looked up by its sha256: the secret itself is never compared, so its bytes cannot leak by timing.
  const found = await store.findKeyByHash(keyHash);
  if (!found || found.key.revokedAt !== null) throw new ApiError('invalid_api_key');
  if (found.account.status === 'suspended') throw new ApiError('suspended');
  return { account: found.account, livemode: found.key.mode === 'live', keyId: found.key.id };
}
