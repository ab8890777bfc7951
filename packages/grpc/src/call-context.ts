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

/**
 * A call made on behalf of nobody in particular (the buyer on a hosted page): no account, no mode.
 * Only services registered with `addPublic` take it; their handlers can name one object by its id and
 * answer only about that object.
 */
export interface PublicCallContext {
  readonly requestId: string;
}

const ACCOUNT = 'hc-account-id';
const LIVEMODE = 'hc-livemode';
const REQUEST = 'hc-request-id';

export function contextToMetadata(ctx: CallContext | PublicCallContext): Metadata {
  const md = new Metadata();
  if ('accountId' in ctx) {
    md.set(ACCOUNT, ctx.accountId);
    md.set(LIVEMODE, ctx.livemode ? 'true' : 'false');
  }
  md.set(REQUEST, ctx.requestId);
  return md;
}

/** The request id of a public call; account and mode, if sent, are ignored (never trusted). */
export function publicContextFromMetadata(md: Metadata): PublicCallContext {
  const [requestId] = md.get(REQUEST);
  return { requestId: typeof requestId === 'string' ? requestId : '' };
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
