import { newId } from '@hc/ids';
import { generateApiKey, hashApiKey, keyHint, type Mode } from '../domain/api-key.ts';
import type { ApiKeyRecord } from '../domain/merchant-account.ts';
import { activeAccount, foundAccount, type MerchantDependencies } from './merchant-dependencies.ts';

/**
 * Creates a key and returns it in full: the only moment it is ever visible (only its hash is stored).
 * A suspended account gets no new key, whoever asks (403 suspended; docs/adr/0037): the account is
 * checked and the key inserted in one transaction, so a suspension cannot slip in between.
 */
export async function createApiKey(
  deps: MerchantDependencies,
  accountId: string,
  mode: Mode,
  label?: string,
): Promise<{ key: ApiKeyRecord; secret: string }> {
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
  activeAccount(foundAccount(await deps.store.insertKeyIfActive(key, hashApiKey(secret))));
  return { key, secret };
}
