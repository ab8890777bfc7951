import { ApiError } from '@hc/errors';
import type { ApiKeyRecord } from '../domain/merchant-account.ts';
import type { MerchantDependencies } from './merchant-dependencies.ts';

export async function revokeApiKey(deps: MerchantDependencies, keyId: string): Promise<ApiKeyRecord> {
  const key = await deps.store.revokeKey(keyId, deps.now());
  if (!key) throw new ApiError('not_found', 'No such API key.');
  return key;
}
