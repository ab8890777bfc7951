import { Batcher, type Pending } from './batcher.ts';

/**
 * Reads of single rows answered in groups (docs/batching.md): a Batcher whose items are keyed reads.
 * Every read is a round trip, and on a busy machine the round trip — the socket write, the server
 * waking, the row description parsed again — costs more than the row; so one statement answers a
 * whole group, and reads with the same key in a group are answered by one row. A failed statement
 * fails every read of its group, never just some.
 */
export interface GroupedReadsOptions<Request, Value> {
  /** Group statements running at once (each holds one pooled connection while it runs). */
  readonly maxInFlight: number;
  /** Most reads one statement answers; more waiting go into the following groups. */
  readonly maxGroupSize: number;
  /** Identifies a read: reads with the same key in one group are answered by one row. */
  readonly keyOf: (request: Request) => string;
  /** Reads a group (keys unique); the answer maps each found request's key to its value. */
  readonly readGroup: (requests: readonly Request[]) => Promise<ReadonlyMap<string, Value>>;
  /** A group running longer than this stops holding the others back (Batcher's stallMs). */
  readonly stallMs?: number | undefined;
  /** Stalled groups stepped around at once (Batcher's maxStalled). */
  readonly maxStalled?: number | undefined;
}

export class GroupedReads<Request, Value> {
  private readonly batcher: Batcher<Request, Value | undefined>;

  constructor(options: GroupedReadsOptions<Request, Value>) {
    const { keyOf, readGroup } = options;
    this.batcher = new Batcher({
      maxInFlight: options.maxInFlight,
      maxGroupSize: options.maxGroupSize,
      stallMs: options.stallMs,
      maxStalled: options.maxStalled,
      run: async (group: readonly Pending<Request, Value | undefined>[]) => {
        const unique = new Map<string, Request>();
        for (const pending of group) unique.set(keyOf(pending.item), pending.item);
        const found = await readGroup([...unique.values()]);
        for (const pending of group) pending.resolve(found.get(keyOf(pending.item)));
      },
    });
  }

  /** The value for `request`, or undefined when there is none. */
  read(request: Request): Promise<Value | undefined> {
    return this.batcher.add(request);
  }
}
