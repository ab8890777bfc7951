// Risk covered: the batching core (every grouped read, call, commit, counter and sync) leaving a
// caller waiting forever when a group's run ends without answering it, failing items its run had
// already answered, or starting a lone item later than the end of its turn.
import { describe, expect, it } from '@jest/globals';
import { Batcher, UNLIMITED } from './batcher.ts';
import { endOfTurn } from './end-of-turn.ts';

describe('Batcher', () => {
  it('fails the items a run left unanswered and keeps the answers it gave', async () => {
    const batcher = new Batcher<number, number>({
      maxInFlight: 1,
      maxGroupSize: UNLIMITED,
      run: async (group) => group.filter((pending) => pending.item % 2 === 0).forEach((pending) => pending.resolve(pending.item * 10)),
    });
    const settled = await Promise.allSettled([1, 2, 3, 4].map((item) => batcher.add(item)));
    expect(settled.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect(settled[1]).toEqual({ status: 'fulfilled', value: 20 });
  });

  it("fails with the run's own error the items it had not answered when it threw", async () => {
    const batcher = new Batcher<number, number>({
      maxInFlight: 1,
      maxGroupSize: UNLIMITED,
      run: async (group) => {
        group[0]!.resolve(1);
        throw new Error('statement failed');
      },
    });
    const settled = await Promise.allSettled([batcher.add(1), batcher.add(2)]);
    expect(settled).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: new Error('statement failed') },
    ]);
  });

  it('starts a lone item at the end of the turn it was added in, and the items of one turn together', async () => {
    const groups: number[][] = [];
    const batcher = new Batcher<number, void>({
      maxInFlight: 1,
      maxGroupSize: UNLIMITED,
      run: async (group) => {
        groups.push(group.map((pending) => pending.item));
        for (const pending of group) pending.resolve();
      },
    });
    void batcher.add(1);
    void batcher.add(2);
    expect(groups).toEqual([]);
    await endOfTurn();
    expect(groups).toEqual([[1, 2]]);
  });

  it('with maxWaitMs, fails an item still waiting that long with overdue() and never runs it; the others run', async () => {
    const ran: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const batcher = new Batcher<number, number>({
      maxInFlight: 1,
      maxGroupSize: UNLIMITED,
      maxWaitMs: 50,
      overdue: () => new Error('shed'),
      run: async (group) => {
        ran.push(...group.map((pending) => pending.item));
        if (group.some((pending) => pending.item === 1)) await held;
        for (const pending of group) pending.resolve(pending.item);
      },
    });
    const first = batcher.add(1);
    await endOfTurn();
    // Behind the held group: 2 waits past its 50 ms and fails without being run, with no group ending first.
    const began = Date.now();
    await expect(batcher.add(2)).rejects.toThrow('shed');
    expect(Date.now() - began).toBeGreaterThanOrEqual(45);
    const third = batcher.add(3);
    release();
    await expect(first).resolves.toBe(1);
    await expect(third).resolves.toBe(3);
    expect(ran).toEqual([1, 3]);
  });

  it('refuses a maxWaitMs that is not above 0', () => {
    expect(() => new Batcher({ maxInFlight: 1, maxGroupSize: 1, maxWaitMs: 0, run: async () => undefined })).toThrow(RangeError);
  });
});
