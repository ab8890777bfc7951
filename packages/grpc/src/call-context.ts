import { Metadata } from '@grpc/grpc-js';
import { ApiError } from '@hc/errors';

/**
 * Who is calling, as the gateway established it from the API key. Every gRPC call carries it in
 * metadata; services take account and mode from here and nowhere else (never from a request body).
 */
export interface CallContext {
  readonly accountId: string;
  readonly livemode: boolean;
  readonly requestId: string;
}

const ACCOUNT = 'hc-account-id';
const LIVEMODE = 'hc-livemode';
const REQUEST = 'hc-request-id';

export function contextToMetadata(ctx: CallContext): Metadata {
  const md = new Metadata();
  md.set(ACCOUNT, ctx.accountId);
  md.set(LIVEMODE, ctx.livemode ? 'true' : 'false');
  md.set(REQUEST, ctx.requestId);
  return md;
}

export function contextFromMetadata(md: Metadata): CallContext {
  const [accountId] = md.get(ACCOUNT);
  const [livemode] = md.get(LIVEMODE);
  const [requestId] = md.get(REQUEST);
  if (typeof accountId !== 'string' || accountId === '' || (livemode !== 'true' && livemode !== 'false')) {
    // A caller that does not say whose call this is gets nothing: the same answer as a bad key.
    throw new ApiError('invalid_api_key', 'The call carries no account context.');
  }
  return { accountId, livemode: livemode === 'true', requestId: typeof requestId === 'string' ? requestId : '' };
}
