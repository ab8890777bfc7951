/**
 * Reads of single rows answered in groups (docs/adr/0034). Every read is a round trip, and on a busy
 * machine the round trip — the socket write, the server waking, the row description parsed again —
 * costs more than the row. So at most `maxInFlight` group statements run at once; a read that arrives
 * while they are all busy waits for the next group, and one statement answers that whole group. A
 * read that finds a place free goes out once the event loop's current turn is done (setImmediate),
 * with every read asked in that turn: a grouped gRPC call's reads, or the requests read from many
 * sockets at once, make one group instead of one each. A lone read waits for nothing but the end of
 * the turn it was asked in (docs/adr/0072).
 *
 * Reads stay exact: a group's statement starts after each of its reads arrived, so it sees every
 * write committed before any of them was asked (read-your-writes), and a failed statement fails
 * every read of its group, never just some. With `stallMs`, one slow group cannot hold every read
 * behind it for longer than that (docs/adr/0071).
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
  /**
   * A group still running after this many milliseconds stops counting toward maxInFlight, so that
   * reads waiting behind a slow one go out (at most `maxStalled` stalled groups at once). Unset: a
   * group counts until it ends, however long it takes.
   */
  readonly stallMs?: number | undefined;
  /** Stalled groups stepped around at once (with stallMs; default 4). */
  readonly maxStalled?: number | undefined;
}

interface RunningGroup {
  readonly startedAt: number;
  stalled: boolean;
}

interface Waiter<Request, Value> {
  readonly request: Request;
  resolve(value: Value | undefined): void;
  reject(error: unknown): void;
}

export class GroupedReads<Request, Value> {
  private readonly options: GroupedReadsOptions<Request, Value>;
  private waiting: Waiter<Request, Value>[] = [];
  /** Groups running, oldest first (a Set keeps insertion order). */
  private readonly running = new Set<RunningGroup>();
  /** Running groups that count toward maxInFlight (not stalled). */
  private inFlight = 0;
  private readonly maxRunning: number;
  private stallTimer: NodeJS.Timeout | undefined;
  /** Whether a start at the end of this turn of the event loop is already scheduled. */
  private startScheduled = false;

  constructor(options: GroupedReadsOptions<Request, Value>) {
    // Written so that a missing or NaN setting is refused too: it would otherwise never start a group.
    if (!(options.maxInFlight >= 1) || !(options.maxGroupSize >= 1))
      throw new RangeError('maxInFlight and maxGroupSize must be at least 1');
    if (options.stallMs !== undefined && !(options.stallMs > 0)) throw new RangeError('stallMs must be above 0');
    const maxStalled = options.stallMs === undefined ? 0 : (options.maxStalled ?? 4);
    if (!(maxStalled >= 0)) throw new RangeError('maxStalled must be at least 0');
    this.options = options;
    this.maxRunning = options.maxInFlight + maxStalled;
  }

  /** The value for `request`, or undefined when there is none. */
  read(request: Request): Promise<Value | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      if (this.startScheduled) return;
      this.startScheduled = true;
      setImmediate(() => {
        this.startScheduled = false;
        this.startGroups();
      });
    });
  }

  private startGroups(): void {
    while (this.inFlight < this.options.maxInFlight && this.running.size < this.maxRunning && this.waiting.length > 0) {
      const group = this.waiting.splice(0, this.options.maxGroupSize);
      const run: RunningGroup = { startedAt: Date.now(), stalled: false };
      this.running.add(run);
      this.inFlight += 1;
      void this.answer(group).finally(() => {
        this.running.delete(run);
        if (!run.stalled) this.inFlight -= 1;
        this.startGroups();
      });
    }
    if (this.waiting.length > 0) this.watchForStall();
  }

  /**
   * Reads are waiting for a group to end: one timer (never one per group) wakes when the oldest group
   * that still counts has run stallMs, marks every such group stalled, and starts the waiting reads.
   */
  private watchForStall(): void {
    const { stallMs } = this.options;
    if (stallMs === undefined || this.stallTimer !== undefined) return;
    let oldest: RunningGroup | undefined;
    for (const run of this.running) {
      if (!run.stalled) {
        oldest = run;
        break;
      }
    }
    if (!oldest) return; // every running group is stalled: the reads wait for one to end
    this.stallTimer = setTimeout(
      () => {
        this.stallTimer = undefined;
        const now = Date.now();
        for (const run of this.running) {
          if (run.stalled || now - run.startedAt < stallMs) continue;
          run.stalled = true;
          this.inFlight -= 1;
        }
        this.startGroups();
      },
      Math.max(0, oldest.startedAt + stallMs - Date.now()),
    );
    this.stallTimer.unref();
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
