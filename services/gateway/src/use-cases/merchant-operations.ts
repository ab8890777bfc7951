import { ApiError } from '@hc/errors';
import { newId } from '@hc/ids';
import { generateApiKey, hashApiKey, keyHint, type Mode } from '../domain/api-key.ts';
import { DEFAULT_FEE_BPS, isPayoutWallet, type ApiKeyRecord, type MerchantAccount } from '../domain/merchant-account.ts';
import type { MerchantStore } from '../store/merchant-store.ts';

/**
 * What the merchant dashboard does with accounts and keys. Reached through the operator CLI, never
 * through a merchant's secret key.
 */
export class MerchantOperations {
  private readonly store: MerchantStore;
  private readonly now: () => Date;

  constructor(store: MerchantStore, now: () => Date = () => new Date()) {
    this.store = store;
    this.now = now;
  }

  async createAccount(input: { name: string; payoutWallet?: string | undefined; feeBps?: number | undefined }): Promise<MerchantAccount> {
    if (input.name.trim() === '') throw new ApiError('invalid_request', 'An account needs a name.', 'name');
    if (input.payoutWallet !== undefined) this.checkWallet(input.payoutWallet);
    const feeBps = input.feeBps ?? DEFAULT_FEE_BPS;
    if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps > 10_000) {
      throw new ApiError('invalid_request', 'fee_bps must be a whole number from 0 to 10000.', 'fee_bps');
    }
    const account: MerchantAccount = {
      id: newId('account'),
      name: input.name.trim(),
      status: 'active',
      payoutWallet: input.payoutWallet ?? null,
      feeBps,
      createdAt: this.now(),
    };
    await this.store.insertAccount(account);
    return account;
  }

  async setPayoutWallet(accountId: string, wallet: string | null): Promise<MerchantAccount> {
    if (wallet !== null) this.checkWallet(wallet);
    return this.found(await this.store.updateAccount(accountId, { payoutWallet: wallet }));
  }

  async suspend(accountId: string): Promise<MerchantAccount> {
    return this.found(await this.store.updateAccount(accountId, { status: 'suspended' }));
  }

  async reactivate(accountId: string): Promise<MerchantAccount> {
    return this.found(await this.store.updateAccount(accountId, { status: 'active' }));
  }

  /** Creates a key and returns it in full: the only moment it is ever visible. */
  async createKey(accountId: string, mode: Mode, label?: string): Promise<{ key: ApiKeyRecord; secret: string }> {
    this.found(await this.store.findAccount(accountId));
    const secret = generateApiKey(mode);
    const key: ApiKeyRecord = {
      id: newId('apiKey'),
      accountId,
      mode,
      hint: keyHint(secret),
      label: label ?? null,
      createdAt: this.now(),
      revokedAt: null,
    };
    await this.store.insertKey(key, hashApiKey(secret));
    return { key, secret };
  }

  /** The stored, unrevoked key whose secret this is (looked up by its hash), or null. */
  async activeKey(secret: string): Promise<ApiKeyRecord | null> {
    const found = await this.store.findKeyByHash(hashApiKey(secret));
    return found && found.key.revokedAt === null ? found.key : null;
  }

  async revokeKey(keyId: string): Promise<ApiKeyRecord> {
    const key = await this.store.revokeKey(keyId, this.now());
    if (!key) throw new ApiError('not_found', 'No such API key.');
    return key;
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    this.found(await this.store.findAccount(accountId));
    return this.store.listKeys(accountId);
  }

  async getAccount(accountId: string): Promise<MerchantAccount> {
    return this.found(await this.store.findAccount(accountId));
  }

  listAccounts(): Promise<MerchantAccount[]> {
    return this.store.listAccounts();
  }

  private checkWallet(wallet: string): void {
    if (!isPayoutWallet(wallet))
      throw new ApiError('invalid_request', 'The payout wallet must be a Polygon address (0x and 40 hex digits).', 'payout_wallet');
  }

  private found(account: MerchantAccount | null): MerchantAccount {
    if (!account) throw new ApiError('not_found', 'No such account.');
    return account;
  }
}
