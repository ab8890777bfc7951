import { Batcher, UNLIMITED, type Pending } from './batcher.ts';

/**
 * Reads of the same thing asked at once, answered by one call (docs/batching.md): calls with equal
 * keys that arrive while earlier ones are in flight wait for the next group, where one call answers
 * them all (a Batcher: at most `maxInFlight` groups at once, each started after every call of it
 * arrived, so its answer reflects every write answered before any of them: reads still tell the
 * truth). For reads many requests make of one thing: the checkout stream's position, a merchant's
 * account or receipt setting during a sale, the key cache's sync. Each key's call settles on its
 * own: one key's failure is only that key's callers'.
 */
export function sharedCalls<Request, Answer>(
  call: (request: Request) => Promise<Answer>,
  keyOf: (request: Request) => string,
  maxInFlight = 4,
): (request: Request) => Promise<Answer> {
  const groups = new Batcher<Request, Answer>({
    maxInFlight,
    maxGroupSize: UNLIMITED,
    run: async (group) => {
      const byKey = new Map<string, Pending<Request, Answer>[]>();
      for (const pending of group) {
        const key = keyOf(pending.item);
        const same = byKey.get(key);
        if (same) same.push(pending);
        else byKey.set(key, [pending]);
      }
      await Promise.all(
        [...byKey.values()].map((same) =>
          call(same[0]!.item).then(
            (answer) => same.forEach((pending) => pending.resolve(answer)),
            (error: unknown) => same.forEach((pending) => pending.reject(error)),
          ),
        ),
      );
    },
  });
  return (request) => groups.add(request);
}
