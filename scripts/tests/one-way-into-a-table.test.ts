// Risk covered: a store writing a table two ways (Prisma here, raw SQL there), so that a column rule,
// a default or a wake-up kept by one way is missed by the other; and outbox rows written other than
// through @hc/events' one writer (docs/adr/0084, issue 48 item 3), which once differed per store in
// whether they carried the traceparent, skipped a retried message id or woke the relay.
// It proves, by reading every service's src/ (generated code and tests aside): no code outside
// packages/events writes outbox_messages itself, and every table a service writes is written either
// through Prisma's model API or through SQL, not both, except the cases still listed below.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';

const ROOT = join(import.meta.dirname, '..', '..');
const SERVICES = join(ROOT, 'services');

/** Tables still written both ways, by service: each must leave this list when it is moved to one way. */
const STILL_BOTH_WAYS: Readonly<Record<string, readonly string[]>> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' || entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function prismaFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : prismaFiles(path);
    return entry.name.endsWith('.prisma') ? [path] : [];
  });
}

/** Prisma's client property (`outboxMessage`) → the table it writes (`outbox_messages`), from the schema's @@map. */
function modelTables(service: string): Map<string, string> {
  const tables = new Map<string, string>();
  for (const file of prismaFiles(join(SERVICES, service))) {
    for (const model of readFileSync(file, 'utf8').matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
      const name = model[1]!;
      const table = /@@map\("(\w+)"\)/.exec(model[2]!)?.[1] ?? name;
      tables.set(name[0]!.toLowerCase() + name.slice(1), table);
    }
  }
  return tables;
}

const PRISMA_WRITE =
  /\.(\w+)\s*\.(create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\(/g;
const SQL_WRITE = /\b(?:INSERT\s+INTO|DELETE\s+FROM|UPDATE)\s+"?(\w+)"?(?:\s+(?:AS\s+)?\w+)?\s+(?:SET|\(|WHERE|SELECT|VALUES|USING)/gi;

/** For one service, each table it writes and the ways (`prisma`, `sql`) it writes it, with where. */
function writesOf(service: string): Map<string, { prisma: string[]; sql: string[] }> {
  const models = modelTables(service);
  const writes = new Map<string, { prisma: string[]; sql: string[] }>();
  const note = (table: string, way: 'prisma' | 'sql', where: string) => {
    const entry = writes.get(table) ?? { prisma: [], sql: [] };
    entry[way].push(where);
    writes.set(table, entry);
  };
  for (const file of sourceFiles(join(SERVICES, service, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const where = (index: number) => `${relative(ROOT, file)}:${text.slice(0, index).split('\n').length}`;
    for (const match of text.matchAll(PRISMA_WRITE)) {
      const table = models.get(match[1]!);
      if (table) note(table, 'prisma', where(match.index));
    }
    for (const match of text.matchAll(SQL_WRITE)) {
      if (match[1]!.toUpperCase() !== 'OF') note(match[1]!, 'sql', where(match.index));
    }
  }
  return writes;
}

const services = readdirSync(SERVICES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe('one outbox writer (@hc/events writeOutbox / outboxInsertSql)', () => {
  it('is the only code that writes outbox_messages: no service writes the table itself', () => {
    const elsewhere = services.flatMap((service) => {
      const outbox = writesOf(service).get('outbox_messages');
      return outbox ? [...outbox.prisma, ...outbox.sql] : [];
    });
    expect(elsewhere).toEqual([]);
  });

  it('sees a hand-written outbox insert or a Prisma outbox write (the check can fail)', () => {
    const sql = 'WITH o AS (INSERT INTO outbox_messages (msg_id, subject) VALUES ($1, $2)) SELECT 1';
    expect([...sql.matchAll(SQL_WRITE)].map((m) => m[1])).toEqual(['outbox_messages']);
    const prisma = 'await tx.outboxMessage.createMany({ data })';
    expect([...prisma.matchAll(PRISMA_WRITE)].map((m) => m[1])).toEqual(['outboxMessage']);
  });
});

describe('one way into a table per service', () => {
  it.each(services)('%s writes each table through Prisma or through SQL, not both', (service) => {
    const both = [...writesOf(service)].filter(([, ways]) => ways.prisma.length > 0 && ways.sql.length > 0);
    expect(both.map(([table]) => table).sort()).toEqual([...(STILL_BOTH_WAYS[service] ?? [])].sort());
  });
});
