import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { createPool, dropDatabase, migrateDatabase, readMigrations, withDatabase, withServer } from '@hc/db';
import { testDatabaseServerUrl } from './infrastructure.ts';

export interface TestDatabase {
  /** Connection string of a database that belongs to this test file alone, fully migrated. */
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file. The service's migrations are applied once to a
 * template database (named after their checksums, so a changed migration makes a new template);
 * each test file then gets a cheap copy with CREATE DATABASE … TEMPLATE. An advisory lock
 * serializes copying, because PostgreSQL refuses to copy a template that another session is using.
 */
export async function createTestDatabase(service: string, migrationsDir: string): Promise<TestDatabase> {
  const server = testDatabaseServerUrl();
  const migrations = await readMigrations(migrationsDir);
  const fingerprint = createHash('sha256')
    .update(migrations.map((m) => `${m.name}:${m.checksum}`).join('\n'))
    .digest('hex')
    .slice(0, 12);
  const template = `hc_tpl_${service}_${fingerprint}`;
  const name = `t_${service}_${randomBytes(5).toString('hex')}`;
  await withServer(server, async (client) => {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['hc-test-kit-templates']);
    try {
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (!exists.rowCount) {
        const building = `${template}_build_${randomBytes(3).toString('hex')}`;
        await client.query(`CREATE DATABASE "${building}"`);
        await migrateDatabase(withDatabase(server, building), migrationsDir);
        await client.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
      }
      await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['hc-test-kit-templates']);
    }
  });
  const url = withDatabase(server, name);
  return { url, drop: () => dropDatabase(url) };
}

/**
 * A pg pool for a test's own reads and writes of a database, whose idle connections may be cut by the
 * server without failing the test. pg-pool's end() resolves before its connections have closed, so
 * the DROP DATABASE … WITH (FORCE) of a harness's stop, right after it, can still terminate one (57P01);
 * without a listener that error is thrown into whichever test opened the connection (CI failed so).
 */
export function openTestPool(databaseUrl: string, max = 1): pg.Pool {
  return createPool(databaseUrl, { max });
}
