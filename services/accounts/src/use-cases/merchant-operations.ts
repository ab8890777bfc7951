import type { Mode } from '../domain/api-key.ts';
import type { ApiKeyRecord, MerchantAccount } from '../domain/merchant-account.ts';
import type { MerchantStore } from '../store/merchant-store.ts';
import { createAccount, type CreateAccountInput } from './create-account.ts';
import { createApiKey } from './create-api-key.ts';
import { findActiveKey } from './find-active-key.ts';
import { getAccount } from './get-account.ts';
import { listAccounts } from './list-accounts.ts';
import { listApiKeys } from './list-api-keys.ts';
import type { MerchantDependencies } from './merchant-dependencies.ts';
import { reactivateAccount } from './reactivate-account.ts';
import { revokeApiKey } from './revoke-api-key.ts';
import { setPayoutWallet } from './set-payout-wallet.ts';
import { suspendAccount } from './suspend-account.ts';

/** The account and key verbs, as the operator has them: in this process or over gRPC (openAccountsOperator). */
export type AccountVerbs = Pick<
  MerchantOperations,
  | 'createAccount'
  | 'setPayoutWallet'
  | 'suspend'
  | 'reactivate'
  | 'createKey'
  | 'activeKey'
  | 'revokeKey'
  | 'listKeys'
  | 'getAccount'
  | 'listAccounts'
>;

/**
 * Wiring, not a use case: binds the account and key verbs (one per file in `use-cases/`) to one store
 * and clock, for the operator's gRPC handlers and for test harnesses that run this service in their
 * own process. Each method only forwards; the rules live in the verb it names.
 */
export class MerchantOperations {
  private readonly deps: MerchantDependencies;

  constructor(store: MerchantStore, now: () => Date = () => new Date()) {
    this.deps = { store, now };
  }

  createAccount(input: CreateAccountInput): Promise<MerchantAccount> {
    return createAccount(this.deps, input);
  }

  /** The operator's wallet change: allowed on a suspended account too, to fix it before reactivating (ADR 0037). */
  setPayoutWallet(accountId: string, wallet: string | null): Promise<MerchantAccount> {
    return setPayoutWallet(this.deps, accountId, wallet, { evenWhenSuspended: true });
  }

  suspend(accountId: string): Promise<MerchantAccount> {
    return suspendAccount(this.deps, accountId);
  }

  reactivate(accountId: string): Promise<MerchantAccount> {
    return reactivateAccount(this.deps, accountId);
  }

  createKey(accountId: string, mode: Mode, label?: string): Promise<{ key: ApiKeyRecord; secret: string }> {
    return createApiKey(this.deps, accountId, mode, label);
  }

  activeKey(secret: string): Promise<ApiKeyRecord | null> {
    return findActiveKey(this.deps, secret);
  }

  revokeKey(keyId: string): Promise<ApiKeyRecord> {
    return revokeApiKey(this.deps, keyId);
  }

  listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return listApiKeys(this.deps, accountId);
  }

  getAccount(accountId: string): Promise<MerchantAccount> {
    return getAccount(this.deps, accountId);
  }

  listAccounts(): Promise<MerchantAccount[]> {
    return listAccounts(this.deps);
  }
}
