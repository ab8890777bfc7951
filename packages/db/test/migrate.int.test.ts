// Risk covered: the migration runner applying a service's schema twice, out of order, or silently
// accepting an edited migration; and concurrent runners (several replicas booting) racing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { dropDatabase, ensureDatabase, migrateDatabase, MigrationError, withDatabase } from '../src/index.ts';

const server = process.env['TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const url = withDatabase(server, `t_db_migrate_${process.pid}_${Date.now()}`);
let dir: string;

async function addMigration(name: string, sql: string): Promise<void> {
  await mkdir(join(dir, name), { recursive: true });
  await writeFile(join(dir, name, 'migration.sql'), sql);
}

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hc-migrations-'));
  await ensureDatabase(url);
});
afterAll(async () => {
  await dropDatabase(url);
});

describe('migrateDatabase', () => {
  it('applies pending migrations once, in name order, racing runners included', async () => {
    await addMigration('20260102000000_second', 'INSERT INTO a VALUES (1);');
    await addMigration('20260101000000_first', 'CREATE TABLE a (id int primary key);');
    const results = await Promise.all([migrateDatabase(url, dir), migrateDatabase(url, dir), migrateDatabase(url, dir)]);
    expect(results.flat()).toEqual(['20260101000000_first', '20260102000000_second']);
    expect(await migrateDatabase(url, dir)).toEqual([]);
    const rows = await query('SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name');
    expect(rows.map((r) => r['migration_name'])).toEqual(['20260101000000_first', '20260102000000_second']);
    expect(rows[0]?.['checksum']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a migration edited after it was applied', async () => {
    await addMigration('20260101000000_first', 'CREATE TABLE a (id bigint primary key);');
    await expect(migrateDatabase(url, dir)).rejects.toThrow(MigrationError);
    await addMigration('20260101000000_first', 'CREATE TABLE a (id int primary key);');
  });

  it('rolls back a failing migration entirely', async () => {
    await addMigration('20260103000000_broken', 'CREATE TABLE b (id int); SELECT no_such_function();');
    await expect(migrateDatabase(url, dir)).rejects.toThrow(/20260103000000_broken/);
    const rows = await query("SELECT to_regclass('public.b') AS t");
    expect(rows[0]?.['t']).toBeNull();
  });
});
