import type { CallContext, ServiceHandlers } from '@hc/grpc';
import type { MerchantAdminService } from '@hc/proto/accounts/v1';
import type { MerchantAdminService as LegacyMerchantAdminService } from '@hc/proto/gateway/v1';
import type { Mode } from '../../domain/api-key.ts';
import { createApiKey } from '../../use-cases/create-api-key.ts';
import { getAccount } from '../../use-cases/get-account.ts';
import { listApiKeys } from '../../use-cases/list-api-keys.ts';
import type { MerchantDependencies } from '../../use-cases/merchant-dependencies.ts';
import { revokeOwnApiKey } from '../../use-cases/revoke-own-api-key.ts';
import { setPayoutWallet } from '../../use-cases/set-payout-wallet.ts';
import type { BrandDependencies } from '../../use-cases/set-brand.ts';
import { merchantBrandHandlers } from './brand-handlers.ts';
import { accountMessage, keyMessage } from './messages.ts';

/**
 * The merchant admin gRPC handlers (docs/adr/0028, 0085): proto in, use case, proto out. Account and
 * mode come only from call metadata (the dashboard's signed-in user and the URL's mode), never the body.
 * The same handlers serve the previous release's hc.gateway.v1 name (same fields; docs/adr/0086), so
 * requests are typed by the fields read.
 */
export function merchantAdminHandlers(
  deps: MerchantDependencies & BrandDependencies,
): ServiceHandlers<typeof MerchantAdminService> & ServiceHandlers<typeof LegacyMerchantAdminService> {
  return {
    ...merchantBrandHandlers(deps),

    async getAccount(_request: object, ctx: CallContext) {
      return { account: accountMessage(await getAccount(deps, ctx.accountId)) };
    },

    async listApiKeys(_request: object, ctx: CallContext) {
      const keys = await listApiKeys(deps, ctx.accountId);
      return { keys: keys.filter((key) => key.mode === modeOf(ctx)).map(keyMessage) };
    },

    async createApiKey(request: { label?: string }, ctx: CallContext) {
      const { key, secret } = await createApiKey(deps, ctx.accountId, modeOf(ctx), request.label);
      return { key: keyMessage(key), secret };
    },

    async revokeApiKey(request: { id: string }, ctx: CallContext) {
      return { key: keyMessage(await revokeOwnApiKey(deps, ctx.accountId, modeOf(ctx), request.id)) };
    },

    async setPayoutWallet(request: { payoutWallet: string }, ctx: CallContext) {
      const wallet = request.payoutWallet.trim();
      return { account: accountMessage(await setPayoutWallet(deps, ctx.accountId, wallet === '' ? null : wallet)) };
    },
  };
}

function modeOf(ctx: CallContext): Mode {
  return ctx.livemode ? 'live' : 'test';
}
