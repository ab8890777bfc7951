import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { afterCrash, DEFAULT_RESTART_POLICY as policy, logTail } from '../src/supervisor.ts';

describe('the platform supervisor', () => {
  it('doubles the delay with each quick crash in a row, from 1 s, capped at 15 s', () => {
    const delays: number[] = [];
    let crashes = 0;
    const cappedPolicy = { ...policy, maxCrashesInARow: 100 };
    for (let i = 0; i < 6; i++) {
      const next = afterCrash(cappedPolicy, crashes, 1000);
      if (next.action !== 'restart') throw new Error('gave up');
      delays.push(next.delayMs);
      crashes = next.crashesInARow;
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000]);
  });

  it('gives a process up on its 5th crash in a row, each within 30 s of its start', () => {
    expect(afterCrash(policy, 3, 29_999)).toEqual({ action: 'restart', delayMs: 8000, crashesInARow: 4 });
    expect(afterCrash(policy, 4, 29_999)).toEqual({ action: 'give-up', crashesInARow: 5 });
  });

  it('counts a crash after 30 s of running as the first of a new series', () => {
    expect(afterCrash(policy, 4, 30_000)).toEqual({ action: 'restart', delayMs: 1000, crashesInARow: 1 });
  });

  it('reports the last lines of a log, or says there is none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hc-supervisor-'));
    try {
      const file = join(dir, 'checkout.log');
      writeFileSync(file, `${Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n')}\n`);
      expect(logTail(file, 3)).toBe('line 4997\nline 4998\nline 4999');
      expect(logTail(join(dir, 'missing.log'))).toBe('(no log)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
