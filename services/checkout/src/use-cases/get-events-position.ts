import { ApiError } from '@hc/errors';
import type { OutboxPosition } from '@hc/events';

/** A caller never waits longer than this, whatever it asks for: the read it serves has its own deadline. */
export const MAX_POSITION_WAIT_MS = 10_000;

/**
 * Read-your-writes (docs/adr/0011): the checkout stream sequence that covers every event of every
 * write committed before this call. Costs a read of the outbox's unpublished rows and a stream info,
 * nothing on the write path. Past the wait (relay or NATS down) the read must not go on: catching_up.
 */
export async function getEventsPosition(position: OutboxPosition, waitMs: number): Promise<bigint> {
  const sequence = await position.current(Math.min(waitMs, MAX_POSITION_WAIT_MS));
  if (sequence === null) throw new ApiError('catching_up', 'Checkout events of a recent write are not yet published; retry shortly.');
  return BigInt(sequence);
}
