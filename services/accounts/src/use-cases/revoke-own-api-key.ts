import { ApiError } from '@hc/errors';
import type { Mode } from '../domain/api-key.ts';
import type { ApiKeyRecord } from '../domain/merchant-account.ts';
import type { MerchantDependencies } from './merchant-dependencies.ts';
import { revokeApiKey } from './revoke-api-key.ts';

/**
 * Revokes a key on behalf of a merchant (the dashboard, docs/adr/0028): only a key of that account and
 * mode; any other id is not_found, the same answer as an id that never existed, so ids cannot be probed.
 * The operator's `revokeApiKey` stays unscoped on purpose.
 */
export async function revokeOwnApiKey(deps: MerchantDependencies, accountId: string, mode: Mode, keyId: string): Promise<ApiKeyRecord> {
  const keys = await deps.store.listKeys(accountId);
  if (!keys.some((key) => key.id === keyId && key.mode === mode)) throw new ApiError('not_found', 'No such API key.');
  return revokeApiKey(deps, keyId);
}
