import { ApiError } from '@hc/errors';

/** No caller waits longer than this, whatever it asks for. */
export const MAX_BARRIER_WAIT_MS = 10_000;

/** Read-your-writes (docs/adr/0011): what this context can wait on. */
export interface Barriers {
  /** This context's consumer has applied (or given up on) every checkout event up to `sequence`. */
  checkoutApplied(sequence: number, timeoutMs: number): Promise<boolean>;
  /** Every context subscribed to this context's events has applied all of them committed so far. */
  ownEventsApplied(timeoutMs: number): Promise<boolean>;
}

/** A request's barrier as the gateway sends it: the checkout stream sequence of the caller's answered writes. */
export interface BarrierRequest {
  checkoutSequence: bigint;
  waitMs: number;
}

/**
 * Waits until the caller's answered checkout writes are applied here, or fails with the retryable
 * catching_up: a read that does not reflect them would be a wrong answer, not a slow one.
 */
export async function awaitCheckoutWrites(barriers: Barriers, request: BarrierRequest | undefined): Promise<void> {
  if (!request || request.checkoutSequence === 0n) return;
  const applied = await barriers.checkoutApplied(Number(request.checkoutSequence), Math.min(request.waitMs, MAX_BARRIER_WAIT_MS));
  if (!applied) throw new ApiError('catching_up');
}
