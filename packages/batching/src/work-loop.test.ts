// Risk covered: the loop shared by the outbox relay and the webhooks delivery worker loses a wake (an
// event waits a whole poll, or forever with a long poll), hammers a failing dependency (a wake cutting
// the back-off short, no doubling), or stops before the step in flight. Polls here are a minute long, so a step that comes sooner can only
// have been woken.
import { describe, expect, it } from '@jest/globals';
import { backoffDelay, WorkLoop, type StepResult } from './work-loop.ts';

const MINUTE = 60_000;

/** A step whose results the test scripts, and whose calls the test can await. */
function scriptedStep(results: (StepResult | Error)[]) {
  const calls: number[] = [];
  let called: (() => void) | undefined;
  return {
    calls,
    step: async (): Promise<StepResult> => {
      calls.push(Date.now());
      called?.();
      const next = results.shift() ?? { again: false };
      if (next instanceof Error) throw next;
      return next;
    },
    /** Resolves when the step has been called `count` times in all. */
    async reached(count: number): Promise<void> {
      while (calls.length < count) await new Promise<void>((resolve) => (called = resolve));
    },
  };
}

describe('WorkLoop', () => {
  it('sleeps a poll after an empty step, and wake() cuts the sleep short', async () => {
    const scripted = scriptedStep([]);
    const loop = new WorkLoop({ step: scripted.step, pollIntervalMs: MINUTE });
    loop.start();
    await scripted.reached(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(scripted.calls).toHaveLength(1);
    loop.wake();
    await scripted.reached(2);
    await loop.stop();
  });

  it('keeps a wake that arrives while a step runs: the next sleep returns at once', async () => {
    let release: (() => void) | undefined;
    let steps = 0;
    const loop = new WorkLoop({
      pollIntervalMs: MINUTE,
      step: async () => {
        steps += 1;
        if (steps === 1) await new Promise<void>((resolve) => (release = resolve));
        return { again: false };
      },
    });
    loop.start();
    while (!release) await new Promise((resolve) => setTimeout(resolve, 5));
    const second = loop.nextIteration().then(() => loop.nextIteration());
    loop.wake();
    release();
    await second;
    expect(steps).toBe(2);
    await loop.stop();
  });

  it('steps again at once after a full batch (again: true)', async () => {
    const scripted = scriptedStep([{ again: true }, { again: true }, { again: false }]);
    const loop = new WorkLoop({ step: scripted.step, pollIntervalMs: MINUTE });
    loop.start();
    await scripted.reached(3);
    await loop.stop();
    expect(scripted.calls).toHaveLength(3);
  });

  it('backs off after failures, doubling up to the ceiling, not cut short by wake(), and says when it recovers', async () => {
    const failure = new Error('nats down');
    const scripted = scriptedStep([failure, { again: false, failure }, failure, { again: false }]);
    const failures: [unknown, number, number][] = [];
    const recovered: number[] = [];
    const loop = new WorkLoop({
      step: scripted.step,
      pollIntervalMs: MINUTE,
      backoff: { firstMs: 100, maxMs: 150 },
      onFailure: (error, attempt, retryInMs) => {
        failures.push([error, attempt, retryInMs]);
        loop.wake(); // a NOTIFY during the back-off must not end it early
      },
      onRecovered: (count) => recovered.push(count),
    });
    loop.start();
    await scripted.reached(4);
    await loop.stop();
    expect(failures).toEqual([
      [failure, 1, 100],
      [failure, 2, 150],
      [failure, 3, 150],
    ]);
    expect(recovered).toEqual([3]);
    const gaps = scripted.calls.slice(1).map((at, i) => at - scripted.calls[i]!);
    // Lower bounds only (a loaded machine makes timers late, never early); 5 ms of timer slack.
    expect(gaps[0]).toBeGreaterThanOrEqual(95);
    expect(gaps[1]).toBeGreaterThanOrEqual(145);
    expect(gaps[2]).toBeGreaterThanOrEqual(145);
  });

  it('without a back-off, a failure waits for the next poll (and a wake)', async () => {
    const scripted = scriptedStep([new Error('claim failed')]);
    const attempts: number[] = [];
    const loop = new WorkLoop({ step: scripted.step, pollIntervalMs: MINUTE, onFailure: (_e, attempt) => attempts.push(attempt) });
    loop.start();
    await scripted.reached(1);
    loop.wake();
    await scripted.reached(2);
    await loop.stop();
    expect(attempts).toEqual([1]);
  });

  it('asks a poll given as a function before each sleep (the relay polls faster while its LISTEN is down)', async () => {
    const scripted = scriptedStep([]);
    let poll = MINUTE;
    const loop = new WorkLoop({ step: scripted.step, pollIntervalMs: () => poll });
    loop.start();
    await scripted.reached(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(scripted.calls).toHaveLength(1);
    poll = 5;
    loop.wake(); // the sleep in flight was a minute long; the next ones are 5 ms
    await scripted.reached(4);
    poll = MINUTE;
    await scripted.reached(5);
    const settled = scripted.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await loop.stop();
    expect(scripted.calls.length).toBeLessThanOrEqual(settled + 1);
  });

  it('wakeIn() wakes the loop when the time comes (a retry due), and stop() clears what is pending', async () => {
    const scripted = scriptedStep([]);
    const loop = new WorkLoop({ step: scripted.step, pollIntervalMs: MINUTE });
    loop.start();
    await scripted.reached(1);
    const asked = Date.now();
    loop.wakeIn(100);
    await scripted.reached(2);
    expect(scripted.calls[1]! - asked).toBeGreaterThanOrEqual(90);
    loop.wakeIn(MINUTE); // would keep a test process alive for a minute if stop() left it
    await loop.stop();
    expect(scripted.calls).toHaveLength(2);
  });

  it('stop() cuts a poll sleep short', async () => {
    const scripted = scriptedStep([]);
    const loop = new WorkLoop({ step: scripted.step, pollIntervalMs: MINUTE });
    loop.start();
    await scripted.reached(1);
    await loop.stop(); // would take a minute if the sleep ran out (the test's timeout is 10 s)
    expect(loop.stopped).toBe(true);
    expect(scripted.calls).toHaveLength(1);
  }, 10_000);

  it('stop() waits for the step in flight, and nextIteration() waiters are released', async () => {
    let finished = false;
    let started: (() => void) | undefined;
    const inStep = new Promise<void>((resolve) => (started = resolve));
    const loop = new WorkLoop({
      pollIntervalMs: MINUTE,
      step: async () => {
        started?.();
        await new Promise((resolve) => setTimeout(resolve, 50));
        finished = true;
        return { again: false };
      },
    });
    loop.start();
    await inStep;
    const waiter = loop.nextIteration();
    await loop.stop();
    expect(finished).toBe(true);
    await waiter;
  }, 10_000);

  it('backoffDelay doubles from the first delay up to the ceiling', () => {
    const settings = { firstMs: 100, maxMs: 2_000 };
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffDelay(settings, attempt))).toEqual([100, 200, 400, 800, 1600, 2000, 2000]);
  });
});
