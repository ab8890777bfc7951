import type { CallContext, ServiceHandlers } from '@hc/grpc';
import type { MerchantAdminService } from '@hc/proto/gateway/v1';
import type { Mode } from '../../domain/api-key.ts';
import type { ApiKeyRecord, MerchantAccount } from '../../domain/merchant-account.ts';
import { createApiKey } from '../../use-cases/create-api-key.ts';
import { getAccount } from '../../use-cases/get-account.ts';
import { listApiKeys } from '../../use-cases/list-api-keys.ts';
import type { MerchantDependencies } from '../../use-cases/merchant-dependencies.ts';
import { revokeOwnApiKey } from '../../use-cases/revoke-own-api-key.ts';
import { setPayoutWallet } from '../../use-cases/set-payout-wallet.ts';

/**
 * The internal admin gRPC handlers (docs/adr/0028): proto in, use case, proto out. Account and mode
 * come only from call metadata (the dashboard's signed-in user and the URL's mode), never the body.
 */
export function merchantAdminHandlers(deps: MerchantDependencies): ServiceHandlers<typeof MerchantAdminService> {
  return {
    async getAccount(_request, ctx) {
      return { account: accountMessage(await getAccount(deps, ctx.accountId)) };
    },

    async listApiKeys(_request, ctx) {
      const keys = await listApiKeys(deps, ctx.accountId);
      return { keys: keys.filter((key) => key.mode === modeOf(ctx)).map(keyMessage) };
    },

    async createApiKey(request, ctx) {
      const { key, secret } = await createApiKey(deps, ctx.accountId, modeOf(ctx), request.label);
      return { key: keyMessage(key), secret };
    },

    async revokeApiKey(request, ctx) {
      return { key: keyMessage(await revokeOwnApiKey(deps, ctx.accountId, modeOf(ctx), request.id)) };
    },

    async setPayoutWallet(request, ctx) {
      const wallet = request.payoutWallet.trim();
      return { account: accountMessage(await setPayoutWallet(deps, ctx.accountId, wallet === '' ? null : wallet)) };
    },
  };
}

function modeOf(ctx: CallContext): Mode {
  return ctx.livemode ? 'live' : 'test';
}

function accountMessage(account: MerchantAccount) {
  return {
    id: account.id,
    name: account.name,
    status: account.status,
    payoutWallet: account.payoutWallet ?? undefined,
    created: account.createdAt.toISOString(),
    feeBps: account.feeBps,
  };
}

function keyMessage(key: ApiKeyRecord) {
  return {
    id: key.id,
    hint: key.hint,
    label: key.label ?? undefined,
    created: key.createdAt.toISOString(),
    revoked: key.revokedAt?.toISOString(),
  };
}
