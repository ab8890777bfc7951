// Risk covered: grouped reads (docs/adr/0034) answering a read with another read's value, leaving a read
// waiting forever after a failed or full group, running more statements at once than allowed,
// delaying a read past the end of its turn when it had no reason to wait, or splitting the reads of
// one turn (docs/adr/0072). The statement is a function the test answers by hand,
// so every interleaving below is exact.
import { describe, expect, it } from '@jest/globals';
import { GroupedReads } from './grouped-reads.ts';

interface Call {
  readonly keys: string[];
  answer(values: Record<string, string>): void;
  fail(error: Error): void;
}

function harness(options: { maxInFlight: number; maxGroupSize: number; stallMs?: number; maxStalled?: number }) {
  const calls: Call[] = [];
  const reads = new GroupedReads<string, string>({
    ...options,
    keyOf: (key) => key,
    readGroup: (keys) =>
      new Promise((resolve, reject) => {
        calls.push({ keys: [...keys], answer: (values) => resolve(new Map(Object.entries(values))), fail: reject });
      }),
  });
  return { reads, calls };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('GroupedReads', () => {
  it('sends a lone read at the end of the turn it was asked in, in a group of one', async () => {
    const { reads, calls } = harness({ maxInFlight: 2, maxGroupSize: 10 });
    const value = reads.read('a');
    expect(calls).toHaveLength(0);
    await settle();
    expect(calls.map((c) => c.keys)).toEqual([['a']]);
    calls[0]!.answer({ a: 'A' });
    await expect(value).resolves.toBe('A');
  });

  it('sends the reads asked in one turn together, however many places are free', async () => {
    const { reads, calls } = harness({ maxInFlight: 4, maxGroupSize: 10 });
    const values = [reads.read('a'), reads.read('b'), reads.read('c')];
    await settle();
    expect(calls.map((c) => c.keys)).toEqual([['a', 'b', 'c']]);
    calls[0]!.answer({ a: 'A', c: 'C' });
    await expect(Promise.all(values)).resolves.toEqual(['A', undefined, 'C']);
  });

  it('runs at most maxInFlight statements; reads arriving meanwhile share the next, each gets its own value', async () => {
    const { reads, calls } = harness({ maxInFlight: 2, maxGroupSize: 10 });
    const first = [reads.read('a')];
    await settle();
    first.push(reads.read('b'));
    await settle();
    const waiting = [reads.read('c'), reads.read('d'), reads.read('e')];
    await settle();
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['b']]);
    calls[1]!.answer({ b: 'B' });
    await settle();
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['b'], ['c', 'd', 'e']]);
    calls[2]!.answer({ c: 'C', e: 'E' });
    calls[0]!.answer({ a: 'A' });
    await expect(Promise.all([...first, ...waiting])).resolves.toEqual(['A', 'B', 'C', undefined, 'E']);
  });

  it('caps a group at maxGroupSize and asks a key once however many reads name it', async () => {
    const { reads, calls } = harness({ maxInFlight: 1, maxGroupSize: 3 });
    const blocker = reads.read('x');
    await settle();
    const later = ['a', 'a', 'b', 'c', 'd'].map((key) => reads.read(key));
    await settle();
    calls[0]!.answer({ x: 'X' });
    await settle();
    expect(calls[1]!.keys).toEqual(['a', 'b']); // the first three reads: a, a, b
    calls[1]!.answer({ a: 'A', b: 'B' });
    await settle();
    expect(calls[2]!.keys).toEqual(['c', 'd']);
    calls[2]!.answer({ c: 'C', d: 'D' });
    await expect(Promise.all([blocker, ...later])).resolves.toEqual(['X', 'A', 'A', 'B', 'C', 'D']);
  });

  it('fails every read of a failed group, and only those; the reads waiting behind it still run', async () => {
    const { reads, calls } = harness({ maxInFlight: 1, maxGroupSize: 10 });
    const failed = reads.read('a');
    await settle();
    const behind = [reads.read('b'), reads.read('c')];
    await settle();
    calls[0]!.fail(new Error('connection lost'));
    await expect(failed).rejects.toThrow('connection lost');
    await settle();
    expect(calls[1]!.keys).toEqual(['b', 'c']);
    calls[1]!.fail(new Error('statement timeout'));
    await expect(Promise.all(behind.map((p) => p.catch((e: Error) => e.message)))).resolves.toEqual([
      'statement timeout',
      'statement timeout',
    ]);
    const after = reads.read('d');
    await settle();
    expect(calls[2]!.keys).toEqual(['d']);
    calls[2]!.answer({ d: 'D' });
    await expect(after).resolves.toBe('D');
  });

  it('with stallMs, steps around a group that runs too long: the reads behind it go out, up to maxStalled such groups', async () => {
    const { reads, calls } = harness({ maxInFlight: 1, maxGroupSize: 10, stallMs: 40, maxStalled: 1 });
    const slow = reads.read('slow');
    await settle();
    const behind = [reads.read('b'), reads.read('c')];
    await settle();
    expect(calls.map((c) => c.keys)).toEqual([['slow']]); // not before the stall
    await sleep(150);
    expect(calls.map((c) => c.keys)).toEqual([['slow'], ['b', 'c']]);
    // The second group stalls too; with one stalled group allowed, the next reads wait for an end.
    const third = reads.read('d');
    await sleep(150);
    expect(calls).toHaveLength(2);
    calls[0]!.answer({ slow: 'S' }); // a stalled group ends: its place is free again
    await settle();
    expect(calls.map((c) => c.keys)).toEqual([['slow'], ['b', 'c'], ['d']]);
    calls[1]!.answer({ b: 'B', c: 'C' });
    calls[2]!.answer({ d: 'D' });
    await expect(Promise.all([slow, ...behind, third])).resolves.toEqual(['S', 'B', 'C', 'D']);
  });

  it('with stallMs, a stalled group that ends frees no place it no longer held', async () => {
    const { reads, calls } = harness({ maxInFlight: 1, maxGroupSize: 10, stallMs: 40 });
    const slow = reads.read('slow');
    await settle();
    const next = reads.read('a');
    await sleep(100);
    expect(calls).toHaveLength(2); // 'a' went out once 'slow' stalled, and now holds the one place
    calls[0]!.answer({ slow: 'S' });
    await settle();
    const waiting = reads.read('b');
    await settle();
    expect(calls).toHaveLength(2); // 'slow' ending freed nothing: 'a' holds the place
    calls[1]!.answer({ a: 'A' });
    await settle();
    expect(calls.map((c) => c.keys)).toEqual([['slow'], ['a'], ['b']]);
    calls[2]!.answer({ b: 'B' });
    await expect(Promise.all([slow, next, waiting])).resolves.toEqual(['S', 'A', 'B']);
  });

  it('refuses settings that could never run a statement', () => {
    expect(() => harness({ maxInFlight: 0, maxGroupSize: 10 })).toThrow(RangeError);
    expect(() => harness({ maxInFlight: 1, maxGroupSize: 0 })).toThrow(RangeError);
    // A setting missing from a hand-built config (undefined) or read as NaN would hang every read.
    expect(() => harness({ maxInFlight: undefined as unknown as number, maxGroupSize: 10 })).toThrow(RangeError);
    expect(() => harness({ maxInFlight: 1, maxGroupSize: Number.NaN })).toThrow(RangeError);
    expect(() => harness({ maxInFlight: 1, maxGroupSize: 10, stallMs: 0 })).toThrow(RangeError);
    expect(() => harness({ maxInFlight: 1, maxGroupSize: 10, stallMs: 10, maxStalled: -1 })).toThrow(RangeError);
  });
});
