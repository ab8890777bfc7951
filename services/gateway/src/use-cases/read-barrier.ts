import type { CallContext, ServiceClient } from '@hc/grpc';
import type { CheckoutService } from '@hc/proto/checkout/v1';

/** What a customers call must wait for (the customers proto's ReadBarrier). */
export interface ReadBarrier {
  checkoutSequence: bigint;
  waitMs: number;
}

/**
 * Read-your-writes (docs/adr/0011): asks checkout where its stream is now (a position covering
 * every write it has answered, whichever gateway replica answered it), for the customers context to
 * wait on. Nothing is remembered here, so replicas and restarts cannot lose it; the cost is one
 * checkout call per customers read, none on creates. The whole wait shares one bound.
 */
export async function checkoutWritesBarrier(
  checkout: ServiceClient<typeof CheckoutService>,
  ctx: CallContext,
  waitMs: number,
): Promise<ReadBarrier> {
  const started = Date.now();
  const { streamSequence } = await checkout.getEventsPosition({ waitMs }, ctx);
  return { checkoutSequence: streamSequence, waitMs: Math.max(0, waitMs - (Date.now() - started)) };
}
