/**
 * The expand → migrate → contract check (docs/replicas.md, docs/adr/0094). In a rolling upgrade the
 * chart's migration Jobs run first, then pods of the previous release keep serving on the migrated
 * database until each Deployment is replaced. So a migration of this release must leave every table
 * and column the previous release uses as that release expects it:
 *   - no table or column of the previous release dropped or renamed (a rename is a drop to old code:
 *     Prisma selects every column of a model by name);
 *   - no column's type changed, no nullable column made NOT NULL (old code may write NULL);
 *   - no NOT NULL column without a default added to a table the previous release writes (its inserts
 *     do not name the column).
 * Contract in the release after the one that stopped using a table or column: the previous release's
 * schema.prisma marks it with a `///` comment containing `contract-ready`, and only then may it go.
 *
 * How: each service's migrations of the previous release (`git archive` of the commit in
 * deploy/previous-release) and of this tree are applied to two fresh databases on the test PostgreSQL
 * server, and their columns compared (information_schema). Every migration the previous release had
 * must also be unchanged here (the runner refuses an edited, applied migration).
 *
 *   node scripts/expand-contract.ts            # every service; exit 1 and one line per violation
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { dropDatabase, ensureDatabase, migrateDatabase, readMigrations, withDatabase } from '@hc/db';

interface Column {
  type: string;
  nullable: boolean;
  hasDefault: boolean;
}
/** table → column → what it is. */
type Columns = Map<string, Map<string, Column>>;

export interface ReleasePair {
  service: string;
  /** The previous release's prisma/migrations folder. */
  previousMigrations: string;
  /** The previous release's schema.prisma text (for its `contract-ready` marks). */
  previousSchema: string;
  /** This tree's prisma/migrations folder. */
  migrations: string;
}

/** Tables (`table`) and columns (`table.column`) the schema marks `contract-ready` in a `///` comment. */
export function contractReady(schema: string): Set<string> {
  const marked = new Set<string>();
  let doc = '';
  let model: { name: string; table: string; marked: boolean; fields: Array<{ column: string; marked: boolean }> } | undefined;
  for (const raw of schema.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('///')) {
      doc += line;
      continue;
    }
    const opened = line.match(/^model\s+(\w+)\s*\{/);
    if (opened) model = { name: opened[1]!, table: opened[1]!, marked: doc.includes('contract-ready'), fields: [] };
    else if (model && line.startsWith('}')) {
      if (model.marked) marked.add(model.table);
      for (const f of model.fields) if (f.marked) marked.add(`${model.table}.${f.column}`);
      model = undefined;
    } else if (model) {
      const table = line.match(/^@@map\("([^"]+)"\)/);
      const field = line.match(/^(\w+)\s+\S+/);
      if (table) model.table = table[1]!;
      else if (field && !line.startsWith('@@')) {
        model.fields.push({ column: line.match(/@map\("([^"]+)"\)/)?.[1] ?? field[1]!, marked: doc.includes('contract-ready') });
      }
    }
    if (line !== '') doc = '';
  }
  return marked;
}

async function columnsOf(url: string): Promise<Columns> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{
      table_name: string;
      column_name: string;
      udt_name: string;
      is_nullable: string;
      column_default: string | null;
    }>(
      `SELECT c.table_name, c.column_name, c.udt_name, c.is_nullable, c.column_default
         FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name <> '_prisma_migrations'`,
    );
    const columns: Columns = new Map();
    for (const r of rows) {
      if (!columns.has(r.table_name)) columns.set(r.table_name, new Map());
      columns
        .get(r.table_name)!
        .set(r.column_name, { type: r.udt_name, nullable: r.is_nullable === 'YES', hasDefault: r.column_default !== null });
    }
    return columns;
  } finally {
    await client.end();
  }
}

/** A fresh database on `server` with `migrationsDir` applied; its columns; dropped again. */
async function migratedColumns(server: string, migrationsDir: string): Promise<Columns> {
  const url = withDatabase(server, `hc_expand_${randomBytes(5).toString('hex')}`);
  await ensureDatabase(url);
  try {
    await migrateDatabase(url, migrationsDir);
    return await columnsOf(url);
  } finally {
    await dropDatabase(url);
  }
}

/** What this tree's migrations break for the previous release of one service; [] when nothing. */
export async function expandContractViolations(server: string, pair: ReleasePair): Promise<string[]> {
  const problems: string[] = [];
  const say = (what: string): void => void problems.push(`${pair.service}: ${what}`);
  const now = new Map((await readMigrations(pair.migrations)).map((m) => [m.name, m.checksum]));
  for (const m of await readMigrations(pair.previousMigrations)) {
    if (!now.has(m.name)) say(`migration ${m.name} of the previous release is gone`);
    else if (now.get(m.name) !== m.checksum) say(`migration ${m.name} of the previous release was edited (add a new one instead)`);
  }
  const ready = contractReady(pair.previousSchema);
  const before = await migratedColumns(server, pair.previousMigrations);
  const after = await migratedColumns(server, pair.migrations);
  for (const [table, columns] of before) {
    const nowColumns = after.get(table);
    if (!nowColumns) {
      if (!ready.has(table)) say(`table ${table} is dropped or renamed, and the previous release uses it (mark it contract-ready first)`);
      continue;
    }
    for (const [column, was] of columns) {
      const is = nowColumns.get(column);
      if (!is) {
        if (!ready.has(table) && !ready.has(`${table}.${column}`))
          say(`column ${table}.${column} is dropped or renamed, and the previous release uses it (mark it contract-ready first)`);
      } else if (is.type !== was.type) say(`column ${table}.${column} changes type ${was.type} → ${is.type}`);
      else if (was.nullable && !is.nullable) say(`column ${table}.${column} becomes NOT NULL; the previous release may write NULL`);
    }
    for (const [column, is] of nowColumns) {
      if (!columns.has(column) && !is.nullable && !is.hasDefault)
        say(`column ${table}.${column} is added NOT NULL without a default; the previous release's inserts do not set it`);
    }
  }
  return problems;
}

/** The commit of the previous release: the first word of deploy/previous-release that is not a comment. */
export function previousRelease(root: string): string {
  const text = readFileSync(join(root, 'deploy/previous-release'), 'utf8');
  const commit = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('#'));
  if (!commit) throw new Error('deploy/previous-release names no commit');
  return commit.split(/\s+/)[0]!;
}

async function main(): Promise<void> {
  const root = join(import.meta.dirname, '..');
  const server = process.env['TEST_DATABASE_SERVER_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const commit = previousRelease(root);
  const work = mkdtempSync(join(tmpdir(), 'hc-expand-contract-'));
  try {
    execFileSync('sh', ['-c', `git -C "${root}" archive ${commit} services | tar -x -C "${work}"`]);
    const problems: string[] = [];
    let checked = 0;
    for (const service of readdirSync(join(root, 'services'))) {
      const migrations = join(root, 'services', service, 'prisma/migrations');
      const previous = join(work, 'services', service, 'prisma');
      if (!existsSync(migrations) || !existsSync(join(previous, 'migrations'))) continue;
      checked++;
      problems.push(
        ...(await expandContractViolations(server, {
          service,
          previousMigrations: join(previous, 'migrations'),
          previousSchema: readFileSync(join(previous, 'schema.prisma'), 'utf8'),
          migrations,
        })),
      );
    }
    for (const p of problems) process.stderr.write(`expand-contract: ${p}\n`);
    process.stdout.write(`expand-contract: ${checked} services against the previous release ${commit}: ${problems.length} violation(s)\n`);
    if (problems.length > 0) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  main().catch((error: unknown) => {
    process.stderr.write(`expand-contract: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
