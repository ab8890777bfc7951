import type { ApiKeyRecord, MerchantAccount } from '../../domain/merchant-account.ts';

/** hc.accounts.v1.Account of an account. */
export function accountMessage(account: MerchantAccount) {
  return {
    id: account.id,
    name: account.name,
    status: account.status,
    payoutWallet: account.payoutWallet ?? undefined,
    created: account.createdAt.toISOString(),
    feeBps: account.feeBps,
  };
}

/** hc.accounts.v1.ApiKey of a key: its hint, never its secret or hash. */
export function keyMessage(key: ApiKeyRecord) {
  return {
    id: key.id,
    hint: key.hint,
    label: key.label ?? undefined,
    created: key.createdAt.toISOString(),
    revoked: key.revokedAt?.toISOString(),
    accountId: key.accountId,
    mode: key.mode,
  };
}
