import { describe, expect, it } from '@jest/globals';
import type { CallContext } from './call-context.ts';
import { sharedWritesBarrier, type EventsPositionSource } from './read-barrier.ts';

const ctx = (requestId: string): CallContext => ({ accountId: 'acct_1', livemode: false, requestId });

/** A checkout whose stream position is `position` when each call STARTS; calls end when released. */
function checkoutAt(initial: bigint) {
  let position = initial;
  const calls: { at: bigint; release: () => void }[] = [];
  const source: EventsPositionSource = {
    getEventsPosition: () => {
      const at = position;
      return new Promise((resolve) => calls.push({ at, release: () => resolve({ streamSequence: at }) }));
    },
  };
  return { source, calls, advance: (to: bigint) => (position = to) };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('sharedWritesBarrier', () => {
  it('answers the reads asked together with one checkout call', async () => {
    const checkout = checkoutAt(5n);
    const barrier = sharedWritesBarrier(checkout.source, 1_000);
    const reads = [barrier(ctx('a')), barrier(ctx('b')), barrier(ctx('c'))];
    await turn();
    expect(checkout.calls).toHaveLength(1);
    checkout.calls[0]!.release();
    const answers = await Promise.all(reads);
    expect(answers.map((answer) => answer.checkoutSequence)).toEqual([5n, 5n, 5n]);
    for (const answer of answers) expect(answer.waitMs).toBeLessThanOrEqual(1_000);
  });

  it('never answers a read with a position taken before it arrived', async () => {
    const checkout = checkoutAt(5n);
    const barrier = sharedWritesBarrier(checkout.source, 1_000);
    const early = barrier(ctx('early'));
    await turn();
    // A write is answered (the stream moves on), then a read arrives while the first call runs.
    checkout.advance(9n);
    const late = barrier(ctx('late'));
    await turn();
    expect(checkout.calls).toHaveLength(1);
    checkout.calls[0]!.release();
    expect((await early).checkoutSequence).toBe(5n);
    await turn();
    expect(checkout.calls).toHaveLength(2);
    checkout.calls[1]!.release();
    expect((await late).checkoutSequence).toBe(9n);
  });

  it('fails every read of a group whose call failed, as each single call would have', async () => {
    const failing: EventsPositionSource = { getEventsPosition: () => Promise.reject(new Error('unreachable')) };
    const barrier = sharedWritesBarrier(failing, 1_000);
    await expect(Promise.all([barrier(ctx('a')), barrier(ctx('b'))])).rejects.toThrow('unreachable');
  });
});
