/**
 * One figure from wrk (Debian's `wrk`, C, two threads): the load generator of `pnpm bench` since
 * docs/adr/0068. pgbench, the baseline, is a C client too; driving the platform with a client that
 * costs about as little per request keeps the load generator out of the ratio on a shared machine.
 *
 * The request is built by a Lua script written for the run. `freshIdempotencyKey` gives every request
 * a key of its own (thread, counter and a run nonce), as an SDK does on every create. An answer counts
 * as an error when wrk says so: a status above 399, a socket error or no answer within `timeoutSeconds`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** A new `Idempotency-Key` on every request. */
  freshIdempotencyKey?: boolean;
  connections: number;
  /** Seconds. */
  duration: number;
  timeoutSeconds?: number;
}

/** What one load run measured: answers, its duration, latencies in ms, and the answers that were errors. */
export interface LoadResult {
  requests: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/** The line the script's done() prints, then parsed by wrkLoad. */
interface WrkSummary {
  requests: number;
  duration_us: number;
  p50_us: number;
  p99_us: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
}

/** A Lua string literal for any text: a long bracket whose level the text does not contain. */
function luaString(text: string): string {
  let level = '';
  while (text.includes(`]${level}]`)) level += '=';
  // A long bracket drops a newline right after the opening; a leading one is kept by doubling it.
  return `[${level}[${text.startsWith('\n') ? '\n' : ''}${text}]${level}]`;
}

export function wrkScript(options: LoadOptions, nonce: string): string {
  const headers = Object.entries(options.headers ?? {})
    .map(([name, value]) => `  [ ${luaString(name)} ] = ${luaString(value)},`)
    .join('\n');
  const lines = [
    `wrk.method = ${luaString(options.method ?? 'GET')}`,
    options.body === undefined ? '' : `wrk.body = ${luaString(options.body)}`,
    `local base = {\n${headers}\n}`,
    'for name, value in pairs(base) do wrk.headers[name] = value end',
  ];
  if (options.freshIdempotencyKey) {
    lines.push(
      'local threads = 0',
      'function setup(thread) threads = threads + 1; thread:set("thread_number", threads) end',
      'local counter = 0',
      'function request()',
      '  counter = counter + 1',
      '  local headers = {}',
      '  for name, value in pairs(base) do headers[name] = value end',
      `  headers["Idempotency-Key"] = ${luaString(`bench-${nonce}-`)} .. thread_number .. "-" .. counter`,
      '  return wrk.format(nil, nil, headers, nil)',
      'end',
    );
  }
  lines.push(
    'function done(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'\\n{"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\\n\',',
    '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.connect, e.read, e.write, e.status, e.timeout))',
    'end',
  );
  return `${lines.filter((line) => line !== '').join('\n')}\n`;
}

/** Runs wrk once; fails loudly when it is not installed (scripts/ensure-wrk.sh installs it). */
export async function wrkLoad(options: LoadOptions): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'hc-wrk-'));
  const script = join(dir, 'load.lua');
  writeFileSync(script, wrkScript(options, `${process.pid}-${Date.now()}`));
  try {
    const threads = Math.min(2, options.connections);
    const { stdout, stderr } = await run('wrk', [
      `-t${threads}`,
      `-c${options.connections}`,
      `-d${options.duration}s`,
      `--timeout`,
      `${options.timeoutSeconds ?? 10}s`,
      '-s',
      script,
      options.url,
    ]).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new Error('wrk is not installed: run `bash scripts/ensure-wrk.sh` (Debian: apt-get install wrk)');
      throw error;
    });
    const line = stdout
      .split('\n')
      .reverse()
      .find((candidate) => candidate.startsWith('{"requests"'));
    // No summary means the script did not load (wrk then runs without it): never a figure.
    if (!line) throw new Error(`wrk printed no summary:\n${stdout}\n${stderr}`);
    const summary = JSON.parse(line) as WrkSummary;
    return {
      requests: summary.requests,
      seconds: summary.duration_us / 1e6,
      p50Ms: summary.p50_us / 1000,
      p99Ms: summary.p99_us / 1000,
      errors: summary.connect + summary.read + summary.write + summary.status + summary.timeout,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
