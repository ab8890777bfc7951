// Risk covered: a migration that breaks the previous release's pods during a rolling upgrade (the
// migration Jobs run first, old pods keep serving on the migrated database): a column or table dropped
// or renamed while old code reads it, a type changed, a NOT NULL added that old inserts do not fill.
// Runs scripts/expand-contract.ts on checkout's real migrations (as the previous release) against the
// same plus one new migration each time, on the test PostgreSQL; CI runs the script against the commit
// in deploy/previous-release (docs/adr/0094).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { testDatabaseServerUrl } from '@hc/test-kit';
import { contractReady, expandContractViolations } from '../expand-contract.ts';

const CHECKOUT = join(import.meta.dirname, '../../services/checkout/prisma');
const SCHEMA = readFileSync(join(CHECKOUT, 'schema.prisma'), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'hc-expand-contract-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** checkout's migrations plus one new one with `sql` (or none), in a folder of its own. */
function migrationsWith(name: string, sql?: string): string {
  const dir = join(work, name);
  cpSync(join(CHECKOUT, 'migrations'), dir, { recursive: true });
  if (sql !== undefined) {
    mkdirSync(join(dir, '29991231000000_next'));
    writeFileSync(join(dir, '29991231000000_next', 'migration.sql'), sql);
  }
  return dir;
}

const check = (name: string, sql: string | undefined, previousSchema = SCHEMA): Promise<string[]> =>
  expandContractViolations(testDatabaseServerUrl(), {
    service: 'checkout',
    previousMigrations: join(CHECKOUT, 'migrations'),
    previousSchema,
    migrations: migrationsWith(name, sql),
  });

describe('the expand → migrate → contract check', () => {
  it('passes migrations that only expand: a new table, a nullable column, a NOT NULL column with a default', async () => {
    expect(await check('same', undefined)).toEqual([]);
    const expand = [
      'CREATE TABLE "refunds" ("id" TEXT PRIMARY KEY, "amount" NUMERIC NOT NULL);',
      'ALTER TABLE "checkout_sessions" ADD COLUMN "note" TEXT;',
      `ALTER TABLE "checkout_sessions" ADD COLUMN "channel" TEXT NOT NULL DEFAULT 'api';`,
    ].join('\n');
    expect(await check('expand', expand)).toEqual([]);
  }, 60_000);

  it('fails a migration that drops or renames a column, or renames a table, the previous release uses', async () => {
    expect(await check('drop-column', 'ALTER TABLE "checkout_sessions" DROP COLUMN "description";')).toEqual([
      'checkout: column checkout_sessions.description is dropped or renamed, and the previous release uses it (mark it contract-ready first)',
    ]);
    // A rename is a drop to old code, and the new name a NOT NULL column old inserts leave empty.
    expect(await check('rename-column', 'ALTER TABLE "checkouts" RENAME COLUMN "description" TO "summary";')).toEqual([
      'checkout: column checkouts.description is dropped or renamed, and the previous release uses it (mark it contract-ready first)',
      "checkout: column checkouts.summary is added NOT NULL without a default; the previous release's inserts do not set it",
    ]);
    expect(await check('rename-table', 'ALTER TABLE "applied_verdicts" RENAME TO "verdicts";')).toEqual([
      'checkout: table applied_verdicts is dropped or renamed, and the previous release uses it (mark it contract-ready first)',
    ]);
  }, 60_000);

  it('fails a changed type, a column made NOT NULL, a NOT NULL column without a default, an edited old migration', async () => {
    const problems = await check(
      'tighten',
      [
        'ALTER TABLE "checkout_sessions" ALTER COLUMN "description" TYPE VARCHAR(200);',
        `ALTER TABLE "checkout_sessions" ADD COLUMN "channel" TEXT NOT NULL;`,
      ].join('\n'),
    );
    expect(problems).toEqual([
      'checkout: column checkout_sessions.description changes type text → varchar',
      "checkout: column checkout_sessions.channel is added NOT NULL without a default; the previous release's inserts do not set it",
    ]);
    const edited = migrationsWith('edited');
    writeFileSync(join(edited, '20261220000000_buyer_locale/migration.sql'), '-- rewritten\n');
    const violations = await expandContractViolations(testDatabaseServerUrl(), {
      service: 'checkout',
      previousMigrations: join(CHECKOUT, 'migrations'),
      previousSchema: SCHEMA,
      migrations: edited,
    });
    expect(violations).toContain(
      'checkout: migration 20261220000000_buyer_locale of the previous release was edited (add a new one instead)',
    );
  }, 60_000);

  it('lets a table or column go once the previous release marked it contract-ready', async () => {
    const marked = SCHEMA.replace(
      'model AppliedVerdict {',
      '/// contract-ready: no code reads it since this release.\nmodel AppliedVerdict {',
    ).replace(/^(\s+)description(\s+)String$/m, '$1/// contract-ready\n$1description$2String');
    expect(contractReady(marked)).toEqual(new Set(['applied_verdicts', 'checkout_sessions.description']));
    const contract = 'DROP TABLE "applied_verdicts";\nALTER TABLE "checkout_sessions" DROP COLUMN "description";';
    expect(await check('contract', contract, marked)).toEqual([]);
    expect(await check('contract-unmarked', contract)).toHaveLength(2);
  }, 60_000);
});
