import { describe, expect, it } from '@jest/globals';
import { sharedCalls } from './shared-calls.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A store read per call: the value a key has when the call STARTS; each call ends when released. */
function reads() {
  const values = new Map<string, number>();
  const calls: { key: string; release: () => void; fail: (error: Error) => void }[] = [];
  const call = (key: string) =>
    new Promise<number>((resolve, reject) => {
      const value = values.get(key) ?? 0;
      calls.push({ key, release: () => resolve(value), fail: reject });
    });
  return { values, calls, call };
}

describe('sharedCalls', () => {
  it('answers the reads of one key asked at once with one call, and each key with its own', async () => {
    const store = reads();
    const read = sharedCalls(store.call, (key) => key);
    const answers = Promise.all([read('a'), read('a'), read('b'), read('a')]);
    await turn();
    expect(store.calls.map((call) => call.key)).toEqual(['a', 'b']);
    store.values.set('a', 1);
    for (const call of store.calls) call.release();
    expect(await answers).toEqual([0, 0, 0, 0]);
  });

  it('answers a read asked during a call with a later call, never with the one already running', async () => {
    const store = reads();
    const read = sharedCalls(store.call, (key) => key, 1);
    const first = read('account');
    await turn();
    store.values.set('account', 7); // e.g. the merchant was suspended, and that was answered
    const second = read('account');
    await turn();
    expect(store.calls).toHaveLength(1);
    store.calls[0]!.release();
    expect(await first).toBe(0);
    await turn();
    store.calls[1]!.release();
    expect(await second).toBe(7);
  });

  it("fails only the failed key's reads", async () => {
    const store = reads();
    const read = sharedCalls(store.call, (key) => key);
    const a = read('a');
    const b = read('b');
    await turn();
    store.calls[0]!.fail(new Error('not found'));
    store.calls[1]!.release();
    await expect(a).rejects.toThrow('not found');
    await expect(b).resolves.toBe(0);
  });
});
