import type { Response } from 'express';
import type { CallContext } from '@hc/grpc';
import type { Caller } from '../../use-cases/authenticate.ts';

/** Per-request values the middleware chain establishes, typed in one place. */
interface GatewayLocals {
  requestId: string;
  caller?: Caller;
}

export function locals(res: Response): GatewayLocals {
  return res.locals as GatewayLocals;
}

/** The authenticated caller; routes under /v1 run only after authentication. */
export function callerOf(res: Response): Caller {
  const caller = locals(res).caller;
  if (!caller) throw new Error('route reached without authentication');
  return caller;
}

/** Account and mode for a gRPC call, from the API key alone. */
export function callContext(res: Response): CallContext {
  const caller = callerOf(res);
  return { accountId: caller.account.id, livemode: caller.livemode, requestId: locals(res).requestId };
}

/**
 * What checkout needs to know of the key's account at a create (a session or a payment link): the
 * wallet and fee as the accounts context answered them to this request's key lookup (synced, docs/adr/0085),
 * and the name buyers see.
 */
export function accountSnapshot(res: Response): { payoutWallet: string | undefined; feeBps: number; merchantName: string } {
  const { account } = callerOf(res);
  return { payoutWallet: account.payoutWallet ?? undefined, feeBps: account.feeBps, merchantName: account.name };
}
