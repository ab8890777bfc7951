import type { CallContext } from './call-context.ts';
import type { CallOptions } from './client.ts';
import { sharedCalls } from '@hc/batching';

/** What a customers call must wait for (the customers proto's ReadBarrier). */
export interface ReadBarrier {
  checkoutSequence: bigint;
  waitMs: number;
}

/** The one checkout call a barrier needs (hc.checkout.v1.CheckoutService/GetEventsPosition). */
export interface EventsPositionSource {
  getEventsPosition(request: { waitMs: number }, ctx: CallContext, options?: CallOptions): Promise<{ streamSequence: bigint }>;
}

/**
 * Read-your-writes (docs/adr/0011): asks checkout where its stream is now (a position covering
 * every write it has answered, whichever gateway replica answered it), for the customers context to
 * wait on. Nothing is remembered here, so replicas and restarts cannot lose it; the cost is one
 * checkout call per customers read, none on creates. The whole wait shares one bound. Used by the
 * gateway, the operator CLI and the dashboard alike.
 */
export async function checkoutWritesBarrier(checkout: EventsPositionSource, ctx: CallContext, waitMs: number): Promise<ReadBarrier> {
  const started = Date.now();
  // The call's deadline must outlast the wait, or a slow relay would read as an outage.
  const { streamSequence } = await checkout.getEventsPosition({ waitMs }, ctx, { timeoutMs: callTimeoutMs(waitMs) });
  return { checkoutSequence: streamSequence, waitMs: Math.max(0, waitMs - (Date.now() - started)) };
}

/**
 * One barrier for many reads at once (docs/adr/0097): the reads that arrive while a barrier call is in
 * flight share the next one, which starts after they all arrived, so its position covers every write
 * answered before any of them (sharedCalls). A busy gateway then asks checkout once per round trip
 * instead of once per customers read. The position is the stream's, not the caller's: the call goes
 * in the first read's context. Each read's remaining wait is its own.
 */
export function sharedWritesBarrier(checkout: EventsPositionSource, waitMs: number): (ctx: CallContext) => Promise<ReadBarrier> {
  const position = sharedCalls(
    (ctx: CallContext) => checkoutWritesBarrier(checkout, ctx, waitMs),
    () => 'position',
    1,
  );
  return async (ctx) => {
    const started = Date.now();
    const { checkoutSequence } = await position(ctx);
    return { checkoutSequence, waitMs: Math.max(0, waitMs - (Date.now() - started)) };
  };
}

/** Time a barrier call gets for its own work on top of its wait (the usual 5 s gRPC deadline). */
const CALL_HEADROOM_MS = 5_000;

/** The gRPC deadline of a call that may wait `waitMs` on a barrier: it must outlast the wait. */
export function callTimeoutMs(waitMs: number): number {
  return waitMs + CALL_HEADROOM_MS;
}
