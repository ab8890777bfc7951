import type { MerchantAccount } from '../domain/merchant-account.ts';
import { foundAccount, type MerchantDependencies } from './merchant-dependencies.ts';

/** A suspended account's keys stop authenticating (authenticate checks the account's status). */
export async function suspendAccount(deps: MerchantDependencies, accountId: string): Promise<MerchantAccount> {
  return foundAccount(await deps.store.updateAccount(accountId, { status: 'suspended' }, deps.now()));
}
