import type { ApiKeyRecord } from '../domain/merchant-account.ts';
import { foundAccount, type MerchantDependencies } from './merchant-dependencies.ts';

export async function listApiKeys(deps: MerchantDependencies, accountId: string): Promise<ApiKeyRecord[]> {
  foundAccount(await deps.store.findAccount(accountId));
  return deps.store.listKeys(accountId);
}
