import { Batcher, UNLIMITED } from './batcher.ts';

/**
 * Group commit (docs/batching.md): items added while a commit runs wait for the next one, which
 * takes all of them, so many concurrent finishers cost one transaction — a Batcher with one group in
 * flight and no size limit. The first commit starts at the end of the event loop's turn, with every
 * item added in that turn: a grouped gRPC call's creates, or the messages of one fetch, make one
 * commit instead of a commit of one and then one of the rest. If a group fails, each of its items is
 * committed on its own, so one bad item does not hold the others back. Each item's promise settles
 * once it is committed (or its own commit failed), with what the commit answered for it: `many`
 * answers one result per item, in order (`groupCommit` is this without results).
 */
export function groupCommitEach<T, R>(commit: {
  readonly many: (items: T[]) => Promise<readonly R[]>;
  readonly one: (item: T) => Promise<R>;
}): (item: T) => Promise<R> {
  const commits = new Batcher<T, R>({
    maxInFlight: 1,
    maxGroupSize: UNLIMITED,
    run: async (group) => {
      try {
        const results = await commit.many(group.map((pending) => pending.item));
        if (results.length !== group.length) throw new Error(`group commit answered ${results.length} results for ${group.length} items`);
        group.forEach((pending, i) => pending.resolve(results[i]!));
      } catch (error) {
        if (group.length === 1) group[0]!.reject(error);
        else for (const pending of group) await commit.one(pending.item).then(pending.resolve, pending.reject);
      }
    },
  });
  return (item) => commits.add(item);
}

/** Group commit of items that need no answer but "committed" (see groupCommitEach). */
export function groupCommit<T>(commit: {
  readonly many: (items: T[]) => Promise<void>;
  readonly one: (item: T) => Promise<void>;
}): (item: T) => Promise<void> {
  return groupCommitEach<T, void>({
    many: async (items) => {
      await commit.many(items);
      return items.map(() => undefined);
    },
    one: commit.one,
  });
}
