import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { missingKeyIdsIn } from '@hc/secrets';
import { eventually } from '@hc/test-kit';
import { afterCrash, DEFAULT_RESTART_POLICY as policy, logSince, logTail, Supervisor } from '../src/supervisor.ts';

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

describe('a crash the diagnosis explains', () => {
  it('is given up at once with the explanation, from what the process logged in that run only', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hc-supervisor-diagnose-'));
    const said: string[] = [];
    const givenUp: string[] = [];
    // A service that meets a value sealed with a key it was not given (as webhooks does at its start).
    writeFileSync(
      join(root, 'sealed.mjs'),
      'console.error("x is sealed with key \\"local-1\\", which SECRETS_ENCRYPTION_KEYS does not list"); process.exit(1);\n',
    );
    const supervisor = new Supervisor({
      root,
      logDir: root,
      say: (line) => said.push(line),
      onGiveUp: (name) => givenUp.push(name),
      diagnose: (name, log) => (missingKeyIdsIn(log).length > 0 ? `${name} lacks ${missingKeyIdsIn(log).join(', ')}` : undefined),
    });
    // An earlier run's log that mentions the key must not be taken for this run's.
    const earlier = 'x is sealed with key "local-0", which SECRETS_ENCRYPTION_KEYS does not list\n';
    writeFileSync(join(root, 'sealed.log'), earlier);
    try {
      supervisor.start('sealed', 'sealed.mjs', {});
      await eventually(
        async () => givenUp,
        (names) => names.length > 0,
        10_000,
      );
      expect(givenUp).toEqual(['sealed']);
      expect(said).toEqual([
        expect.stringMatching(/^sealed started \(pid \d+\)$/),
        'sealed exited (code 1); not restarting it. sealed lacks local-1',
      ]);
      expect(logSince(join(root, 'sealed.log'), earlier.length)).toMatch(/^x is sealed with key "local-1"/);
    } finally {
      await supervisor.stopAll();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
