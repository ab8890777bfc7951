import type { MerchantAccount } from '../domain/merchant-account.ts';
import type { MerchantDependencies } from './merchant-dependencies.ts';

export function listAccounts(deps: MerchantDependencies): Promise<MerchantAccount[]> {
  return deps.store.listAccounts();
}
