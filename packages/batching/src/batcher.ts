import { atEndOfTurn } from './end-of-turn.ts';

/**
 * Items answered in groups (docs/batching.md), the one batching core: every grouped read, grouped
 * call, group commit, counter upsert and key sync is a Batcher with its own `run`. At most
 * `maxInFlight` groups run at once; an item that arrives while they are all busy waits for the next
 * group, which takes every item waiting (up to `maxGroupSize`). An item that finds a place free goes
 * out at the end of the event loop's turn (end-of-turn.ts), with every item added in that turn.
 *
 * A group starts after each of its items arrived, so a read in it sees every write committed before
 * any of them was asked (read-your-writes). Whatever `run` leaves unsettled when it ends, and every
 * item of a group whose `run` throws, fails with its error (never a promise left waiting). With
 * `stallMs`, one slow group cannot hold every item behind it for longer than that; with `maxWaitMs`,
 * an item that could not start within its caller's deadline fails instead of running late.
 */
export interface BatcherOptions<Item, Result> {
  /** Groups running at once (a grouped statement holds one pooled connection while it runs). */
  readonly maxInFlight: number;
  /** Most items in one group; more waiting go into the following groups. */
  readonly maxGroupSize: number;
  /** Answers a group: settles each item (resolve or reject); a throw fails those it left. */
  readonly run: (group: readonly Pending<Item, Result>[]) => Promise<void>;
  /**
   * A group still running after this many milliseconds stops counting toward maxInFlight, so that
   * items waiting behind a slow one go out (at most `maxStalled` stalled groups at once). Unset: a
   * group counts until it ends, however long it takes.
   */
  readonly stallMs?: number | undefined;
  /** Stalled groups stepped around at once (with stallMs; default 4). */
  readonly maxStalled?: number | undefined;
  /**
   * An item still waiting for a group this many milliseconds after it was added fails with
   * `overdue()` and is never run: its caller's deadline has passed, so the work would be wasted
   * (load shedding: an overloaded service gets only the work whose answer is still awaited). Unset:
   * an item waits as long as it takes.
   */
  readonly maxWaitMs?: number | undefined;
  /** What an overdue item fails with (with maxWaitMs). */
  readonly overdue?: (() => unknown) | undefined;
}

/** One item waiting in a group, with the settling of its caller's promise. */
export interface Pending<Item, Result> {
  readonly item: Item;
  /** When the item was added (Date.now()), with maxWaitMs; 0 without (no clock read per item). */
  readonly addedAt: number;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/** No limit on a group's size (group commit, counters, shared calls: one group takes all waiting). */
export const UNLIMITED = Number.MAX_SAFE_INTEGER;

/** What an item fails with when its group's run ended without settling it (a bug in the run). */
const UNANSWERED = new Error('the group ended without answering this item');

interface RunningGroup {
  readonly startedAt: number;
  stalled: boolean;
}

export class Batcher<Item, Result> {
  private readonly options: BatcherOptions<Item, Result>;
  private waiting: Pending<Item, Result>[] = [];
  /** Groups running, oldest first (a Set keeps insertion order). */
  private readonly running = new Set<RunningGroup>();
  /** Running groups that count toward maxInFlight (not stalled). */
  private inFlight = 0;
  private readonly maxRunning: number;
  private stallTimer: NodeJS.Timeout | undefined;
  private overdueTimer: NodeJS.Timeout | undefined;
  /** Whether a start at the end of this turn of the event loop is already scheduled. */
  private startScheduled = false;

  constructor(options: BatcherOptions<Item, Result>) {
    // Written so that a missing or NaN setting is refused too: it would otherwise never start a group.
    if (!(options.maxInFlight >= 1) || !(options.maxGroupSize >= 1))
      throw new RangeError('maxInFlight and maxGroupSize must be at least 1');
    if (options.stallMs !== undefined && !(options.stallMs > 0)) throw new RangeError('stallMs must be above 0');
    if (options.maxWaitMs !== undefined && !(options.maxWaitMs > 0)) throw new RangeError('maxWaitMs must be above 0');
    const maxStalled = options.stallMs === undefined ? 0 : (options.maxStalled ?? 4);
    if (!(maxStalled >= 0)) throw new RangeError('maxStalled must be at least 0');
    this.options = options;
    this.maxRunning = options.maxInFlight + maxStalled;
  }

  /** Adds `item` to the next group; resolves with what its group's run answered for it. */
  add(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject, addedAt: this.options.maxWaitMs === undefined ? 0 : Date.now() });
      if (this.startScheduled) return;
      this.startScheduled = true;
      atEndOfTurn(this.startAtEndOfTurn);
    });
  }

  private readonly startAtEndOfTurn = (): void => {
    this.startScheduled = false;
    this.startGroups();
  };

  private startGroups(): void {
    this.failOverdue();
    while (this.inFlight < this.options.maxInFlight && this.running.size < this.maxRunning && this.waiting.length > 0) {
      const group = this.takeGroup();
      const run: RunningGroup = { startedAt: Date.now(), stalled: false };
      this.running.add(run);
      this.inFlight += 1;
      void this.answer(group).finally(() => {
        this.running.delete(run);
        if (!run.stalled) this.inFlight -= 1;
        this.startGroups();
      });
    }
    if (this.waiting.length > 0) {
      this.watchForStall();
      this.watchForOverdue();
    }
  }

  /** Fails the items that have waited maxWaitMs (the oldest are first: items wait in order). */
  private failOverdue(): void {
    const { maxWaitMs } = this.options;
    if (maxWaitMs === undefined) return;
    const cutoff = Date.now() - maxWaitMs;
    let count = 0;
    while (count < this.waiting.length && this.waiting[count]!.addedAt <= cutoff) count += 1;
    if (count === 0) return;
    const error = this.options.overdue?.() ?? new Error(`waited ${maxWaitMs} ms for a group`);
    for (const pending of this.waiting.splice(0, count)) pending.reject(error);
  }

  /** Items are waiting with maxWaitMs: one timer wakes when the oldest of them is overdue. */
  private watchForOverdue(): void {
    const { maxWaitMs } = this.options;
    if (maxWaitMs === undefined || this.overdueTimer !== undefined) return;
    this.overdueTimer = setTimeout(
      () => {
        this.overdueTimer = undefined;
        this.failOverdue();
        if (this.waiting.length > 0) this.watchForOverdue();
      },
      Math.max(0, this.waiting[0]!.addedAt + maxWaitMs - Date.now()),
    );
    this.overdueTimer.unref();
  }

  /** The next group: every item waiting, or the oldest maxGroupSize of them. */
  private takeGroup(): Pending<Item, Result>[] {
    if (this.waiting.length <= this.options.maxGroupSize) {
      const group = this.waiting;
      this.waiting = [];
      return group;
    }
    return this.waiting.splice(0, this.options.maxGroupSize);
  }

  /**
   * Items are waiting for a group to end: one timer (never one per group) wakes when the oldest group
   * that still counts has run stallMs, marks every such group stalled, and starts the waiting items.
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
    if (!oldest) return; // every running group is stalled: the items wait for one to end
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

  private async answer(group: Pending<Item, Result>[]): Promise<void> {
    let failure: unknown = UNANSWERED;
    try {
      await this.options.run(group);
    } catch (error) {
      failure = error;
    }
    // Settling a settled promise does nothing: only the items the run left unanswered fail here.
    for (const pending of group) pending.reject(failure);
  }
}
