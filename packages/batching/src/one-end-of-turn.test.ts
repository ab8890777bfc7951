// Risk covered: a second end-of-turn mechanism growing back beside the one in end-of-turn.ts (issue
// 48: GroupedReads, grouped calls, group commit, the counters and the key sync each used to start
// their own), and so batches that no longer start by one rule (docs/batching.md).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';

const root = join(import.meta.dirname, '../../..');
const THE_ONE = 'packages/batching/src/end-of-turn.ts';
const TURN_SCHEDULING = /\b(setImmediate|queueMicrotask|process\.nextTick)\s*\(/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the one end-of-turn mechanism', () => {
  it('is the only place in packages/ and services/ source that schedules work for the end of a turn', () => {
    const sources = ['packages', 'services'].flatMap((top) =>
      readdirSync(join(root, top), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .flatMap((entry) => {
          try {
            return sourceFiles(join(root, top, entry.name, 'src'));
          } catch {
            return []; // a package without src/
          }
        }),
    );
    const schedulers = sources
      .map((path) => relative(root, path))
      .filter((path) => TURN_SCHEDULING.test(readFileSync(join(root, path), 'utf8')));
    expect(schedulers).toEqual([THE_ONE]);
  });
});
