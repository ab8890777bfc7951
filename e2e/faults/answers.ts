/**
 * The answers a fault may cause, checked against the documented ones: every status and code in
 * docs/api-errors.md's table, less 500 (a fault of ours, never an answer to a database failing over).
 * No answer at all within the load's 15 s (three times the gateway's 5 s deadline) is a hang.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnswerSeen } from './payment-load.ts';

const API_ERRORS = join(import.meta.dirname, '..', '..', 'docs', 'api-errors.md');

/** `STATUS code` for every row of docs/api-errors.md's table (a row may list several codes). */
export function documentedErrors(): Set<string> {
  const documented = new Set<string>();
  for (const line of readFileSync(API_ERRORS, 'utf8').split('\n')) {
    const row = /^\|\s*(\d{3})\s*\|([^|]*)\|/.exec(line);
    if (!row) continue;
    for (const [, code] of row[2]!.matchAll(/`([a-z_]+)`/g)) documented.add(`${row[1]} ${code}`);
  }
  return documented;
}

export interface AnswerTally {
  /** `STATUS code` (or `STATUS` for a success) → how many. */
  readonly counts: Map<string, number>;
  /** Answers that are neither a success nor a documented error other than 500, nor a hang. */
  readonly undocumented: string[];
  /** Attempts that got no answer (connection failed, or nothing within 15 s): what failed, and when sent. */
  readonly hangs: string[];
  /** The slowest answer, in ms. */
  readonly slowestMs: number;
}

export function tallyAnswers(answers: readonly AnswerSeen[]): AnswerTally {
  const documented = documentedErrors();
  const counts = new Map<string, number>();
  const undocumented: string[] = [];
  const hangs: string[] = [];
  let slowestMs = 0;
  for (const answer of answers) {
    const key = answer.status < 300 ? String(answer.status) : `${answer.status} ${answer.code}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    slowestMs = Math.max(slowestMs, answer.ms);
    const sent = new Date(answer.at).toISOString().slice(11, 23);
    const what = answer.status === 0 ? `no answer (${answer.code})` : key;
    const described = `${answer.step} → ${what} after ${answer.ms} ms, sent ${sent}`;
    if (answer.status === 0) hangs.push(described);
    else if (answer.status >= 300 && (answer.status === 500 || !documented.has(key))) undocumented.push(described);
  }
  return { counts, undocumented, hangs, slowestMs };
}
