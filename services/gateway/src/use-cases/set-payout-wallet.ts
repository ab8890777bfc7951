import type { MerchantAccount } from '../domain/merchant-account.ts';
import { checkedPayoutWallet, foundAccount, type MerchantDependencies } from './merchant-dependencies.ts';

/** Sets (or, with null, clears) the account's payout wallet. */
export async function setPayoutWallet(deps: MerchantDependencies, accountId: string, wallet: string | null): Promise<MerchantAccount> {
  if (wallet !== null) checkedPayoutWallet(wallet);
  return foundAccount(await deps.store.updateAccount(accountId, { payoutWallet: wallet }));
}
