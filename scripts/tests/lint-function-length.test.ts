// Risk covered: a function in src/ grows past 100 lines again (issue 48) and CI stays green, because
// the rule was dropped from eslint.config.js, stopped matching src/ after a glob change, or now
// reaches tests. Reads the configuration ESLint computes for real paths of the repository, then lints
// functions of 100 and 101 lines with it.
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';

const repository = join(import.meta.dirname, '..', '..');

async function ruleFor(path: string): Promise<Linter.RuleEntry | undefined> {
  const config = (await new ESLint({ cwd: repository }).calculateConfigForFile(path)) as Linter.Config;
  return config.rules?.['max-lines-per-function'];
}

/** A function declaration spanning `lines` lines, braces included, as ESLint counts them. */
function functionOf(lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`);
  return ['export function long(): void {', ...body, '}', ''].join('\n');
}

async function lint(code: string, rule: Linter.RuleEntry): Promise<string[]> {
  const eslint = new ESLint({
    cwd: repository,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: { 'max-lines-per-function': rule } }],
  });
  const [result] = await eslint.lintText(code, { filePath: join(repository, 'services/checkout/src/long.ts') });
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'fatal'}: ${message.message}`);
}

describe('function length in src/', () => {
  it.each(['services/checkout/src/main.ts', 'packages/events/src/relay.ts', 'tools/operator/src/operator.ts'])(
    'is limited to 100 lines in %s',
    async (path) => {
      expect(await ruleFor(path)).toEqual([2, { max: 100 }]); // 2: error, as ESLint normalizes it
    },
  );

  it.each(['packages/events/src/loop.test.ts', 'services/checkout/test/relay.int.test.ts', 'e2e/test/smoke.e2e.test.ts'])(
    'is not limited in tests (%s)',
    async (path) => {
      expect(await ruleFor(path)).toBeUndefined();
    },
  );

  it('refuses a 101-line function and takes a 100-line one', async () => {
    const rule = (await ruleFor('services/checkout/src/main.ts'))!;
    expect(await lint(functionOf(100), rule)).toEqual([]);
    expect(await lint(functionOf(101), rule)).toEqual([
      "max-lines-per-function: Function 'long' has too many lines (101). Maximum allowed is 100.",
    ]);
  });
});
