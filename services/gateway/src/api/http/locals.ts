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
