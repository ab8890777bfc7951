import { hashApiKey } from '../domain/api-key.ts';
import type { ApiKeyRecord } from '../domain/merchant-account.ts';
import type { MerchantDependencies } from './merchant-dependencies.ts';

/** The stored, unrevoked key whose secret this is (looked up by its hash), or null. */
export async function findActiveKey(deps: MerchantDependencies, secret: string): Promise<ApiKeyRecord | null> {
  const found = await deps.store.findKeyByHash(hashApiKey(secret));
  return found && found.key.revokedAt === null ? found.key : null;
}
