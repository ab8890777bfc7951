import { ApiError } from '@hc/errors';
import { isPayoutWallet, type MerchantAccount } from '../domain/merchant-account.ts';
import type { MerchantStore } from '../store/merchant-store.ts';

/**
 * What the account and key verbs need: the accounts store and a clock. These verbs are what the
 * merchant dashboard does with accounts and keys; they are reached through the operator's and the
 * dashboard's gRPC services (docs/adr/0085), never through a merchant's secret key.
 */
export interface MerchantDependencies {
  readonly store: MerchantStore;
  readonly now: () => Date;
}

export function checkedPayoutWallet(wallet: string): string {
  if (!isPayoutWallet(wallet))
    throw new ApiError('invalid_request', 'The payout wallet must be a Polygon address (0x and 40 hex digits).', 'payout_wallet');
  return wallet;
}

export function foundAccount(account: MerchantAccount | null): MerchantAccount {
  if (!account) throw new ApiError('not_found', 'No such account.');
  return account;
}

/** The merchant's own changes (payout wallet, new API keys) are refused while the account is suspended. */
export function activeAccount(account: MerchantAccount): MerchantAccount {
  if (account.status === 'suspended')
    throw suspendedRefusal(
      'This account is suspended: its payout wallet cannot be changed and no new API key can be made. Contact support.',
    );
  return account;
}

export function suspendedRefusal(message: string): ApiError {
  return new ApiError('suspended', message);
}
