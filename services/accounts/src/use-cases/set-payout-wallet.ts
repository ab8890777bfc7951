import type { MerchantAccount } from '../domain/merchant-account.ts';
import { activeAccount, checkedPayoutWallet, foundAccount, type MerchantDependencies } from './merchant-dependencies.ts';

export interface SetPayoutWalletOptions {
  /**
   * The operator's override (the operator CLI only, never the merchant's dashboard): an operator may
   * fix the wallet of a suspended account before reactivating it (docs/adr/0037).
   */
  readonly evenWhenSuspended?: boolean;
}

/**
 * Sets (or, with null, clears) the account's payout wallet. A suspended account's wallet cannot be
 * changed by the merchant (403 suspended): the change is one conditional UPDATE, so a suspension that
 * commits first always wins.
 */
export async function setPayoutWallet(
  deps: MerchantDependencies,
  accountId: string,
  wallet: string | null,
  options: SetPayoutWalletOptions = {},
): Promise<MerchantAccount> {
  if (wallet !== null) checkedPayoutWallet(wallet);
  const change = { payoutWallet: wallet };
  if (options.evenWhenSuspended) return foundAccount(await deps.store.updateAccount(accountId, change, deps.now()));
  return activeAccount(foundAccount(await deps.store.updateAccount(accountId, change, deps.now(), { status: 'active' })));
}
