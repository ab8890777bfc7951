import { createToolClient, type PublicCallContext } from '@hc/grpc';
import { AccountsOperatorService, KeyDirectoryService, type Account, type ApiKey } from '@hc/proto/accounts/v1';
import { hashApiKey, type Mode } from '../../domain/api-key.ts';
import type { AccountStatus, ApiKeyRecord, MerchantAccount } from '../../domain/merchant-account.ts';
import type { AccountVerbs } from '../../use-cases/merchant-operations.ts';

/** The operator's verbs over gRPC, with close(). */
export interface AccountsOperator extends AccountVerbs {
  close(): void;
}

const CALL: PublicCallContext = { requestId: '' };

/**
 * The client other processes use for the operator's verbs (the operator CLI, the platform runner;
 * docs/adr/0085): the same verbs as MerchantOperations, over AccountsOperatorService, answering the
 * same shapes. No caller outside this service opens its database. Calls wait for the channel within
 * their deadline (waitForReady): these are one-shot tools, with no caller to retry for them.
 */
export function openAccountsOperator(address: string, timeoutMs: number): AccountsOperator {
  const operator = createToolClient<typeof AccountsOperatorService, PublicCallContext>(AccountsOperatorService, address, timeoutMs);
  const directory = createToolClient<typeof KeyDirectoryService, PublicCallContext>(KeyDirectoryService, address, timeoutMs);
  const account = async (answer: Promise<{ account?: Account }>) => accountOf((await answer).account);
  return {
    createAccount: (input) => account(operator.createAccount(input, CALL)),
    getAccount: (accountId) => account(operator.getAccountById({ accountId }, CALL)),
    listAccounts: async () => (await operator.listAccounts({}, CALL)).accounts.map((a) => accountOf(a)),
    suspend: (accountId) => account(operator.suspendAccount({ accountId }, CALL)),
    reactivate: (accountId) => account(operator.reactivateAccount({ accountId }, CALL)),
    setPayoutWallet: (accountId, wallet) => account(operator.setAccountPayoutWallet({ accountId, payoutWallet: wallet ?? '' }, CALL)),
    async createKey(accountId, mode, label) {
      const answer = await operator.createAccountApiKey({ accountId, mode, label }, CALL);
      return { key: keyOf(answer.key), secret: answer.secret };
    },
    listKeys: async (accountId) => (await operator.listAccountApiKeys({ accountId }, CALL)).keys.map((k) => keyOf(k)),
    revokeKey: async (keyId) => keyOf((await operator.revokeAnyApiKey({ id: keyId }, CALL)).key),
    async activeKey(secret) {
      const { entry } = await directory.findKeyByHash({ keyHash: hashApiKey(secret) }, CALL);
      const key = entry?.key && keyOf(entry.key);
      return key && key.revokedAt === null ? key : null;
    },
    close() {
      operator.close();
      directory.close();
    },
  };
}

function accountOf(message: Account | undefined): MerchantAccount {
  if (!message) throw new Error('accounts answered without an account');
  return {
    id: message.id,
    name: message.name,
    status: message.status as AccountStatus,
    payoutWallet: message.payoutWallet ?? null,
    feeBps: message.feeBps,
    createdAt: new Date(message.created),
  };
}

function keyOf(message: ApiKey | undefined): ApiKeyRecord {
  if (!message) throw new Error('accounts answered without a key');
  return {
    id: message.id,
    accountId: message.accountId,
    mode: message.mode as Mode,
    hint: message.hint,
    label: message.label ?? null,
    createdAt: new Date(message.created),
    revokedAt: message.revoked === undefined ? null : new Date(message.revoked),
  };
}
