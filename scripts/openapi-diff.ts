// `pnpm openapi:diff [ref]`: docs/openapi.json against the committed document of `ref` (default: the
// local main, else origin/main), classified by api-smart-diff. Within v1 the API only grows (the
// document's info.description): any change it classifies as breaking fails, and is listed. With no
// base to compare against (a shallow export without main), it says so and passes.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { apiDiff, type Diff } from 'api-smart-diff';

function git(...args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
  } catch {
    return undefined;
  }
}

const candidates = process.argv[2] ? [process.argv[2]] : ['main', 'origin/main'];
const ref = candidates.find((candidate) => git('rev-parse', '--verify', '--quiet', `${candidate}^{commit}`) !== undefined);
const before = ref === undefined ? undefined : git('show', `${ref}:docs/openapi.json`);
if (ref === undefined || before === undefined) {
  console.log(`openapi:diff: no ${candidates.join(' or ')} with docs/openapi.json to compare against; skipped`);
  process.exit(0);
}
const after = readFileSync(new URL('../docs/openapi.json', import.meta.url), 'utf8');
const diffs: Diff[] = apiDiff(JSON.parse(before), JSON.parse(after));
const counts: Record<string, number> = {};
for (const diff of diffs) counts[diff.type] = (counts[diff.type] ?? 0) + 1;
const summary = Object.entries(counts)
  .map(([type, count]) => `${count} ${type}`)
  .join(', ');
console.log(
  `openapi:diff: docs/openapi.json against ${ref} (${git('rev-parse', '--short', ref)?.trim() ?? '?'}): ${summary || 'no change'}`,
);
// api-smart-diff calls a new value of a response enum breaking (a client may not know it). The v1
// policy (the document's info.description) lists new error codes among additions, so a code added to
// a response's `error.code` is counted as one, and nothing else is excused.
const isNewErrorCode = (diff: Diff): boolean => {
  const path = diff.path.map(String);
  const at = path.lastIndexOf('enum');
  return diff.action === 'add' && at >= 3 && path.slice(at - 3, at).join('.') === 'error.properties.code' && path.includes('responses');
};
const newErrorCodes = diffs.filter((diff) => diff.type === 'breaking' && isNewErrorCode(diff));
if (newErrorCodes.length > 0)
  console.log(`  of the breaking ones, ${newErrorCodes.length} add an error code to a response: additions by the v1 policy`);
const breaking = diffs.filter((diff) => diff.type === 'breaking' && !isNewErrorCode(diff));
for (const diff of breaking) {
  console.log(`  breaking ${diff.action} ${diff.path.join('.')}${diff.description ? `: ${diff.description}` : ''}`);
}
if (breaking.length > 0) {
  console.error(`openapi:diff: ${breaking.length} breaking change(s); v1 may only add`);
  process.exit(1);
}
