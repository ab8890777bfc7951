/**
 * Reads of single rows answered in groups (docs/adr/0034). Every read is a round trip, and on a busy
 * machine the round trip — the socket write, the server waking, the row description parsed again —
 * costs more than the row. So at most `maxInFlight` group statements run at once; a read that arrives
 * while they are all busy waits for the next group, and one statement answers that whole group. A
 * lone read still goes out at once in a group of one: nothing waits that did not have to.
 *
 * Reads stay exact: a group's statement starts after each of its reads arrived, so it sees every
 * write committed before any of them was asked (read-your-writes), and a failed statement fails
 * every read of its group, never just some.
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
}

interface Waiter<Request, Value> {
  readonly request: Request;
  resolve(value: Value | undefined): void;
  reject(error: unknown): void;
}

export class GroupedReads<Request, Value> {
  private readonly options: GroupedReadsOptions<Request, Value>;
  private waiting: Waiter<Request, Value>[] = [];
  private inFlight = 0;

  constructor(options: GroupedReadsOptions<Request, Value>) {
    // Written so that a missing or NaN setting is refused too: it would otherwise never start a group.
    if (!(options.maxInFlight >= 1) || !(options.maxGroupSize >= 1))
      throw new RangeError('maxInFlight and maxGroupSize must be at least 1');
    this.options = options;
  }

  /** The value for `request`, or undefined when there is none. */
  read(request: Request): Promise<Value | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.startGroups();
    });
  }

  private startGroups(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const group = this.waiting.splice(0, this.options.maxGroupSize);
      this.inFlight += 1;
      void this.answer(group).finally(() => {
        this.inFlight -= 1;
        this.startGroups();
      });
    }
  }

  private async answer(group: Waiter<Request, Value>[]): Promise<void> {
    const { keyOf, readGroup } = this.options;
    const unique = new Map<string, Request>();
    for (const waiter of group) unique.set(keyOf(waiter.request), waiter.request);
    let found: ReadonlyMap<string, Value>;
    try {
      found = await readGroup([...unique.values()]);
    } catch (error) {
      for (const waiter of group) waiter.reject(error);
      return;
    }
    for (const waiter of group) waiter.resolve(found.get(keyOf(waiter.request)));
  }
}
