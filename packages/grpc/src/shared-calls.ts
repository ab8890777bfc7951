import { GroupedReads } from '@hc/db';

type Settled<Answer> = { readonly answer: Answer } | { readonly error: unknown };

/**
 * Reads of the same thing asked at once, answered by one call (docs/adr/0097): calls with equal keys
 * that arrive while earlier ones are in flight wait for the next group, where one call answers them
 * all (GroupedReads: at most `maxInFlight` groups at once, each started after every call of it
 * arrived, so its answer reflects every write answered before any of them: reads still tell the
 * truth). For reads many requests make of one thing: the checkout stream's position, a merchant's
 * account or receipt setting during a sale. Each key's call settles on its own: one key's failure is
 * only that key's callers'.
 */
export function sharedCalls<Request, Answer>(
  call: (request: Request) => Promise<Answer>,
  keyOf: (request: Request) => string,
  maxInFlight = 4,
): (request: Request) => Promise<Answer> {
  const groups = new GroupedReads<Request, Settled<Answer>>({
    maxInFlight,
    maxGroupSize: Number.MAX_SAFE_INTEGER,
    keyOf,
    readGroup: async (requests) => {
      const settled = await Promise.all(
        requests.map((request) =>
          call(request).then(
            (answer): Settled<Answer> => ({ answer }),
            (error: unknown): Settled<Answer> => ({ error }),
          ),
        ),
      );
      return new Map(requests.map((request, index) => [keyOf(request), settled[index]!]));
    },
  });
  return async (request) => {
    const settled = (await groups.read(request))!;
    if ('error' in settled) throw settled.error;
    return settled.answer;
  };
}
