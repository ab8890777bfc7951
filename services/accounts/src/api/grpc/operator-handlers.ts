import { ApiError } from '@hc/errors';
import type { PublicCallContext, ServiceHandlers } from '@hc/grpc';
import type { AccountsOperatorService } from '@hc/proto/accounts/v1';
import type { Mode } from '../../domain/api-key.ts';
import type { MerchantOperations } from '../../use-cases/merchant-operations.ts';
import { accountMessage, keyMessage } from './messages.ts';

/**
 * The operator's verbs (the operator CLI, the platform runner; docs/adr/0085): proto in, the verb of
 * MerchantOperations, proto out. On any account: this service is on the internal listener only.
 */
export function operatorHandlers(operations: MerchantOperations): ServiceHandlers<typeof AccountsOperatorService, PublicCallContext> {
  return {
    async createAccount(request) {
      const account = await operations.createAccount({ name: request.name, payoutWallet: request.payoutWallet, feeBps: request.feeBps });
      return { account: accountMessage(account) };
    },
    async getAccountById(request) {
      return { account: accountMessage(await operations.getAccount(request.accountId)) };
    },
    async listAccounts() {
      return { accounts: (await operations.listAccounts()).map(accountMessage) };
    },
    async suspendAccount(request) {
      return { account: accountMessage(await operations.suspend(request.accountId)) };
    },
    async reactivateAccount(request) {
      return { account: accountMessage(await operations.reactivate(request.accountId)) };
    },
    async setAccountPayoutWallet(request) {
      const wallet = request.payoutWallet.trim();
      return { account: accountMessage(await operations.setPayoutWallet(request.accountId, wallet === '' ? null : wallet)) };
    },
    async createAccountApiKey(request) {
      const { key, secret } = await operations.createKey(request.accountId, modeOf(request.mode), request.label);
      return { key: keyMessage(key), secret };
    },
    async listAccountApiKeys(request) {
      return { keys: (await operations.listKeys(request.accountId)).map(keyMessage) };
    },
    async revokeAnyApiKey(request) {
      return { key: keyMessage(await operations.revokeKey(request.id)) };
    },
  };
}

function modeOf(mode: string): Mode {
  if (mode === 'test' || mode === 'live') return mode;
  throw new ApiError('invalid_request', 'mode must be test or live.', 'mode');
}
