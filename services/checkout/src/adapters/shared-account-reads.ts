import { sharedCalls } from '@hc/batching';
import type { CallContext, ServiceClient } from '@hc/grpc';
import type { MerchantAdminService } from '@hc/proto/accounts/v1';

type Accounts = ServiceClient<typeof MerchantAdminService>;

/**
 * The accounts context's GetAccount as the buyer's side reads it (docs/adr/0037: on every view and
 * action, never cached), shared by the reads of one account and mode asked at once (sharedCalls,
 * docs/adr/0097): each read is answered by a call that started after it was asked, so a suspension or
 * a wallet change answered before it shows. A call with options of its own goes alone.
 */
export function sharedAccountReads(accounts: Accounts): Accounts['getAccount'] {
  const shared = sharedCalls(
    (ctx: CallContext) => accounts.getAccount({}, ctx),
    (ctx) => `${ctx.livemode ? 'live' : 'test'}:${ctx.accountId}`,
  );
  // GetAccountRequest is empty: the account is the caller's, from the call's metadata.
  return (request, ctx, options) => (options ? accounts.getAccount(request, ctx, options) : shared(ctx));
}
