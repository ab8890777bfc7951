import type { MerchantAccount } from '../domain/merchant-account.ts';
import { foundAccount, type MerchantDependencies } from './merchant-dependencies.ts';

export async function reactivateAccount(deps: MerchantDependencies, accountId: string): Promise<MerchantAccount> {
  return foundAccount(await deps.store.updateAccount(accountId, { status: 'active' }, deps.now()));
}
