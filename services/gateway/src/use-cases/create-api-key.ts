import { newId } from '@hc/ids';
import { generateApiKey, hashApiKey, keyHint, type Mode } from '../domain/api-key.ts';
import type { ApiKeyRecord } from '../domain/merchant-account.ts';
import { foundAccount, type MerchantDependencies } from './merchant-dependencies.ts';

/** Creates a key and returns it in full: the only moment it is ever visible (only its hash is stored). */
export async function createApiKey(
  deps: MerchantDependencies,
  accountId: string,
  mode: Mode,
  label?: string,
): Promise<{ key: ApiKeyRecord; secret: string }> {
  foundAccount(await deps.store.findAccount(accountId));
  const secret = generateApiKey(mode);
  const key: ApiKeyRecord = {
    id: newId('apiKey'),
    accountId,
    mode,
    hint: keyHint(secret),
    label: label ?? null,
    createdAt: deps.now(),
    revokedAt: null,
  };
  await deps.store.insertKey(key, hashApiKey(secret));
  return { key, secret };
}
