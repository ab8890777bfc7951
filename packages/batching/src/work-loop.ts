/**
 * The machinery of a background worker that polls a database: run a step, sleep until the next poll
 * unless woken (a NOTIFY, a new event) and back off after failures (docs/batching.md). Written once
 * here; the outbox relay, the webhooks delivery worker and the mail worker only say what one step does.
 */

/** What one step of a loop reports. */
export interface StepResult {
  /** More work is probably waiting (a full batch): step again at once, without sleeping. */
  readonly again: boolean;
  /** The step failed: the loop sleeps the back-off (not cut short by wake()) and steps again. */
  readonly failure?: unknown;
}

export interface BackoffSettings {
  /** The first retry's delay; each further failure doubles it. */
  readonly firstMs: number;
  /** The ceiling of the delay. */
  readonly maxMs: number;
}

export interface WorkLoopOptions {
  /** One round of work. A throw counts as a failure, like `{ failure }`. */
  readonly step: () => Promise<StepResult>;
  /** The sleep between rounds when nothing wakes the loop; a function is asked before each sleep. */
  readonly pollIntervalMs: number | (() => number);
  /** Without it, a failure waits for the next poll like an empty round (and can be woken). */
  readonly backoff?: BackoffSettings | undefined;
  /** Told about each failure: its number in a row and the delay before the next try. */
  readonly onFailure?: ((failure: unknown, attempt: number, retryInMs: number) => void) | undefined;
  /** Told when a step succeeds again after `failures` failures in a row. */
  readonly onRecovered?: ((failures: number) => void) | undefined;
}

/** The delay after the `attempt`-th failure in a row (1-based): first, then doubling, up to max. */
export function backoffDelay(settings: BackoffSettings, attempt: number): number {
  return Math.min(settings.maxMs, settings.firstMs * 2 ** (attempt - 1));
}

function pollDelay(pollIntervalMs: WorkLoopOptions['pollIntervalMs']): number {
  return typeof pollIntervalMs === 'number' ? pollIntervalMs : pollIntervalMs();
}

/**
 * Runs `step` until stopped. `wake()` cuts a poll sleep short (or, arriving during a step, makes the
 * next sleep return at once, so no wake is lost); it never cuts a back-off short, so a failing
 * dependency is not hammered. `stop()` cuts any sleep short and resolves once the step in flight is done.
 */
export class WorkLoop {
  private readonly options: WorkLoopOptions;
  private stopRequested = false;
  private wakeRequested = false;
  private interruptSleep: (() => void) | undefined;
  private iterationWaiters: (() => void)[] = [];
  private running: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private readonly alarms = new Set<NodeJS.Timeout>();

  constructor(options: WorkLoopOptions) {
    this.options = options;
  }

  /** True once stop() was called: a step may check it between items to stop early. */
  get stopped(): boolean {
    return this.stopRequested;
  }

  /** Starts stepping (once). wake() may be called before: the first step runs at once anyway. */
  start(): void {
    this.running ??= this.run();
  }

  wake(): void {
    this.wakeRequested = true;
    this.interruptSleep?.();
  }

  /**
   * Wakes the loop in `ms` (work the step scheduled for later, such as a retry, done when due rather
   * than at the next poll after). The timer does not keep the process alive and ends at stop.
   */
  wakeIn(ms: number): void {
    if (this.stopRequested) return;
    const alarm = setTimeout(
      () => {
        this.alarms.delete(alarm);
        this.wake();
      },
      Math.max(0, ms),
    );
    alarm.unref();
    this.alarms.add(alarm);
  }

  /** Resolves after the next step ends (whatever its result), or at stop. Does not wake the loop. */
  nextIteration(): Promise<void> {
    return new Promise((resolve) => this.iterationWaiters.push(resolve));
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopRequested = true;
      for (const alarm of this.alarms) clearTimeout(alarm);
      this.alarms.clear();
      this.interruptSleep?.();
      await this.running;
      this.iterationDone();
    })();
    return this.stopping;
  }

  private iterationDone(): void {
    const waiters = this.iterationWaiters;
    this.iterationWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private async run(): Promise<void> {
    const { step, pollIntervalMs, backoff, onFailure, onRecovered } = this.options;
    let failures = 0;
    while (!this.stopRequested) {
      let result: StepResult;
      try {
        result = await step();
      } catch (error) {
        result = { again: false, failure: error };
      }
      this.iterationDone();
      if (result.failure !== undefined) {
        failures += 1;
        const delayMs = backoff ? backoffDelay(backoff, failures) : pollDelay(pollIntervalMs);
        onFailure?.(result.failure, failures, delayMs);
        await this.sleep(delayMs, !backoff);
        continue;
      }
      if (failures > 0) onRecovered?.(failures);
      failures = 0;
      if (result.again) continue;
      await this.sleep(pollDelay(pollIntervalMs), true);
    }
  }

  /** Sleeps `ms`; wake() cuts it short when `wakeable`, stop() always does. */
  private sleep(ms: number, wakeable: boolean): Promise<void> {
    if (this.stopRequested || (wakeable && this.wakeRequested)) {
      this.wakeRequested = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.interruptSleep = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.interruptSleep = () => {
        if (this.stopRequested) done();
        else if (wakeable) {
          this.wakeRequested = false;
          done();
        }
      };
    });
  }
}
