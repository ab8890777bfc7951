// Risk covered: group commit (the webhooks consumer's records, the gateway's idempotency keys, checkout's
// creates) committing a batch that fails half-way and so dropping or reordering work, or splitting the
// items of one turn of the event loop into two commits.
import { describe, expect, it } from '@jest/globals';
import { groupCommit, groupCommitEach } from './group-commit.ts';

/** The end of this turn of the event loop, after a group commit scheduled in it has started. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('groupCommit', () => {
  it('commits the items added in one turn of the event loop together, the first included', async () => {
    const groups: number[][] = [];
    const commit = groupCommit<number>({
      many: async (items) => {
        groups.push(items);
      },
      one: async () => {
        throw new Error('not expected');
      },
    });
    await Promise.all([commit(1), commit(2), commit(3)]);
    expect(groups).toEqual([[1, 2, 3]]);
  });

  it('commits items that arrive during a commit together in the next one', async () => {
    const groups: number[][] = [];
    let releaseFirst: (() => void) | undefined;
    const commit = groupCommit<number>({
      many: async (items) => {
        groups.push(items);
        if (groups.length === 1) await new Promise<void>((resolve) => (releaseFirst = resolve));
      },
      one: async () => {
        throw new Error('not expected');
      },
    });
    const first = commit(1);
    await nextTurn(); // the first commit has started
    const later = [commit(2), commit(3), commit(4)];
    releaseFirst!();
    await Promise.all([first, ...later]);
    expect(groups).toEqual([[1], [2, 3, 4]]);
  });

  it('when a group fails half-way, commits each item alone: the good ones land, only the bad one is refused', async () => {
    const committedAlone: number[] = [];
    let releaseFirst: (() => void) | undefined;
    let groups = 0;
    const bad = new Error('row 3 violates a constraint');
    const commit = groupCommit<number>({
      many: async () => {
        groups += 1;
        if (groups === 1) await new Promise<void>((resolve) => (releaseFirst = resolve));
        else throw bad;
      },
      one: async (item) => {
        if (item === 3) throw bad;
        committedAlone.push(item);
      },
    });
    const first = commit(1);
    await nextTurn(); // the first commit has started
    const outcomes = Promise.allSettled([commit(2), commit(3), commit(4)]);
    releaseFirst!();
    await first;
    expect((await outcomes).map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(committedAlone).toEqual([2, 4]);
  });

  it('a failing group of one rejects that item', async () => {
    const bad = new Error('database down');
    const commit = groupCommit<number>({
      many: async () => {
        throw bad;
      },
      one: async () => undefined,
    });
    await expect(commit(1)).rejects.toBe(bad);
  });
});

describe('groupCommitEach', () => {
  it("answers each item with its own result of the group's commit, in order", async () => {
    let releaseFirst: (() => void) | undefined;
    const groups: number[][] = [];
    const commit = groupCommitEach<number, string>({
      many: async (items) => {
        groups.push(items);
        if (groups.length === 1) await new Promise<void>((resolve) => (releaseFirst = resolve));
        return items.map((n) => `row ${n}`);
      },
      one: async () => {
        throw new Error('not expected');
      },
    });
    const first = commit(1);
    await nextTurn(); // the first commit has started
    const later = Promise.all([commit(2), commit(3)]);
    releaseFirst!();
    expect(await first).toBe('row 1');
    expect(await later).toEqual(['row 2', 'row 3']);
    expect(groups).toEqual([[1], [2, 3]]);
  });

  it('a group answered with the wrong number of results is committed item by item instead; a lone item is refused', async () => {
    let releaseFirst: (() => void) | undefined;
    let groups = 0;
    const commit = groupCommitEach<number, number>({
      many: async () => {
        groups += 1;
        if (groups === 1) await new Promise<void>((resolve) => (releaseFirst = resolve));
        return [];
      },
      one: async (n) => n * 10,
    });
    const first = commit(1);
    await nextTurn(); // the first commit has started
    const later = Promise.all([commit(2), commit(3)]);
    releaseFirst!();
    await expect(first).rejects.toThrow('group commit answered 0 results for 1 items');
    expect(await later).toEqual([20, 30]);
  });
});
