/**
 * An open-loop load generator (tools/bench/src/pipeline-rate.ts): work item i starts at i / rate
 * seconds after the beginning, whether or not the earlier ones have finished — the way independent
 * buyers arrive. A closed loop (the next request after the previous answer) slows down with the
 * system and hides its queueing; here a slow system shows as latency, a backlog and late starts.
 */

/** When item `index` is due, in ms after the start, at `rate` items a second. */
export function dueAtMs(index: number, rate: number): number {
  return (1000 * index) / rate;
}

/** How many items a run of `seconds` at `rate` a second starts. */
export function itemCount(rate: number, seconds: number): number {
  return Math.floor(rate * seconds);
}

/**
 * A start is late when it began more than `toleranceMs` after it was due: the generator itself (its
 * event loop, the machine's scheduler) could not keep the schedule, so the figure offered less load.
 */
export function isLate(dueMs: number, startedMs: number, toleranceMs: number): boolean {
  return startedMs - dueMs > toleranceMs;
}

export interface Spread {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles and the maximum (NaN when there are no samples). */
export function spread(samples: readonly number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (q: number): number => (sorted.length === 0 ? Number.NaN : sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!);
  return { n: sorted.length, p50: rank(0.5), p99: rank(0.99), max: sorted.length === 0 ? Number.NaN : sorted.at(-1)! };
}

export interface OpenLoopResult {
  started: number;
  late: number;
  /** ms from the first due time until the last item settled. */
  elapsedMs: number;
}

/**
 * Starts `work(i)` for i = 0 … rate × seconds − 1 on schedule, never waiting for earlier items, and
 * resolves once every item has settled. `work` must not reject (count its failures itself).
 */
export async function runOpenLoop(
  rate: number,
  seconds: number,
  work: (index: number) => Promise<void>,
  toleranceMs = 10,
): Promise<OpenLoopResult> {
  const total = itemCount(rate, seconds);
  const begin = performance.now();
  const running: Promise<void>[] = [];
  let late = 0;
  for (let index = 0; index < total; index += 1) {
    const due = dueAtMs(index, rate);
    const wait = begin + due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (isLate(due, performance.now() - begin, toleranceMs)) late += 1;
    running.push(work(index));
  }
  await Promise.all(running);
  return { started: total, late, elapsedMs: performance.now() - begin };
}
