/**
 * Supervision of the local platform's processes (./scripts/start): a process that exits on its own is
 * started again after a delay that doubles with each crash in a row (1 s, 2 s, 4 s … at most 15 s),
 * and the start command says so; one that has run for 30 s counts as healthy again. A process that
 * crashes 5 times in a row, each within 30 s of its start, is not restarted again: it is reported
 * with the end of its log and the platform stops (README; docs/adr/0018). A crash that the
 * `diagnose` hook explains from the log of that run (e.g. a key missing for the secrets at rest,
 * docs/adr/0083) is given up at once: restarting cannot help, and the explanation is what to show.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface RestartPolicy {
  /** Delay before the first restart; each crash in a row doubles it. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** A process that ran this long before exiting starts a new series of crashes. */
  healthyAfterMs: number;
  /** Crashes in a row (each before healthyAfterMs) after which the process is given up. */
  maxCrashesInARow: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  firstDelayMs: 1000,
  maxDelayMs: 15_000,
  healthyAfterMs: 30_000,
  maxCrashesInARow: 5,
};

export type AfterCrash = { action: 'restart'; delayMs: number; crashesInARow: number } | { action: 'give-up'; crashesInARow: number };

/** What to do after a crash: `crashesBefore` earlier crashes in a row, the process having run `uptimeMs`. */
export function afterCrash(policy: RestartPolicy, crashesBefore: number, uptimeMs: number): AfterCrash {
  const crashesInARow = uptimeMs >= policy.healthyAfterMs ? 1 : crashesBefore + 1;
  if (crashesInARow >= policy.maxCrashesInARow) return { action: 'give-up', crashesInARow };
  const delayMs = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (crashesInARow - 1));
  return { action: 'restart', delayMs, crashesInARow };
}

/** What a file holds from byte `from` on (at most its last 16 KB): one run's part of a process's log. */
export function logSince(file: string, from: number): string {
  try {
    const size = statSync(file).size;
    const start = Math.max(from, size - 16_384);
    if (size <= start) return '';
    const buffer = Buffer.alloc(size - start);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, buffer, 0, buffer.length, start);
    } finally {
      closeSync(fd);
    }
    return buffer.toString('utf8');
  } catch {
    return '';
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** The last `lines` lines of a file (read from its end, so a long log costs nothing). */
export function logTail(file: string, lines = 20): string {
  try {
    const size = statSync(file).size;
    const length = Math.min(size, 16_384);
    const buffer = Buffer.alloc(length);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, buffer, 0, length, size - length);
    } finally {
      closeSync(fd);
    }
    return buffer.toString('utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

interface Supervised {
  name: string;
  entry: string;
  env: Record<string, string>;
  child: ChildProcess | undefined;
  crashesInARow: number;
  pendingRestart: NodeJS.Timeout | undefined;
}

export class Supervisor {
  private readonly processes: Supervised[] = [];
  private stopping = false;
  private readonly root: string;
  private readonly logDir: string;
  private readonly say: (line: string) => void;
  private readonly onGiveUp: (name: string) => void;
  private readonly policy: RestartPolicy;
  private readonly nodeArgs: readonly string[];
  private readonly diagnose: (name: string, log: string) => string | undefined;

  constructor(options: {
    root: string;
    logDir: string;
    say: (line: string) => void;
    /** Called once a process is given up (after it was reported). */
    onGiveUp: (name: string) => void;
    policy?: RestartPolicy;
    /** Node options put before each entry, e.g. `--import` of the telemetry hook. */
    nodeArgs?: readonly string[];
    /** After a crash, from what the process logged in that run: why no restart can help, or undefined. */
    diagnose?: (name: string, log: string) => string | undefined;
  }) {
    this.diagnose = options.diagnose ?? (() => undefined);
    this.nodeArgs = options.nodeArgs ?? [];
    this.root = options.root;
    this.logDir = options.logDir;
    this.say = options.say;
    this.onGiveUp = options.onGiveUp;
    this.policy = options.policy ?? DEFAULT_RESTART_POLICY;
  }

  /** Starts `entry` (a path from the repository root) as a supervised Node process. */
  start(name: string, entry: string, env: Record<string, string>): void {
    const supervised: Supervised = { name, entry, env, child: undefined, crashesInARow: 0, pendingRestart: undefined };
    this.processes.push(supervised);
    this.spawn(supervised);
  }

  private logFile(name: string): string {
    return join(this.logDir, `${name}.log`);
  }

  /** The log's path as a person would type it: from the repository root when it is inside. */
  private shownLogFile(name: string): string {
    const shown = relative(this.root, this.logFile(name));
    return shown.startsWith('..') ? this.logFile(name) : shown;
  }

  private spawn(p: Supervised): void {
    // The child writes its own log file (opened for append, both streams): no pipe through this
    // process, which would read and copy every access line (about 4 % of the machine under load),
    // and no line lost or blocked when the supervisor is slow or gone.
    const logStart = sizeOf(this.logFile(p.name));
    const log = openSync(this.logFile(p.name), 'a');
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, [...this.nodeArgs, join(this.root, p.entry)], {
        env: { ...process.env, ...p.env },
        stdio: ['ignore', log, log],
      });
    } finally {
      closeSync(log);
    }
    const startedAt = Date.now();
    p.child = child;
    this.say(`${p.name} started (pid ${child.pid})`);
    child.on('exit', (code, signal) => {
      if (this.stopping) return;
      const how = signal ?? `code ${code}`;
      const diagnosis = this.diagnose(p.name, logSince(this.logFile(p.name), logStart));
      if (diagnosis !== undefined) {
        this.say(`${p.name} exited (${how}); not restarting it. ${diagnosis}`);
        this.onGiveUp(p.name);
        return;
      }
      const next = afterCrash(this.policy, p.crashesInARow, Date.now() - startedAt);
      p.crashesInARow = next.crashesInARow;
      if (next.action === 'give-up') {
        this.say(
          `${p.name} keeps crashing (${next.crashesInARow} times in a row, last: ${how}); not restarting it. ` +
            `Last lines of ${this.shownLogFile(p.name)}:\n${logTail(this.logFile(p.name))}`,
        );
        this.onGiveUp(p.name);
        return;
      }
      this.say(`${p.name} exited unexpectedly (${how}); restarting in ${next.delayMs / 1000} s (crash ${next.crashesInARow} in a row)`);
      p.pendingRestart = setTimeout(() => {
        p.pendingRestart = undefined;
        if (!this.stopping) this.spawn(p);
      }, next.delayMs);
    });
  }

  /** Stops every process (SIGTERM, SIGKILL after 15 s) and restarts none. */
  async stopAll(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      this.processes.map(({ child, pendingRestart }) => {
        clearTimeout(pendingRestart);
        return new Promise<void>((resolve) => {
          if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
        });
      }),
    );
  }
}
