// Risk covered: test files sharing a database (flaky, order-dependent suites) or getting one that is
// not fully migrated; parallel workers racing to build the template.
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createTestDatabase, eventually, openTestPool, TestClock, testNatsPrefix, type TestDatabase } from '../src/index.ts';

const created: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(created.map((db) => db.drop()));
});

describe('createTestDatabase', () => {
  it('gives each caller its own migrated database, also when racing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hc-kit-'));
    await mkdir(join(dir, '20260101000000_init'));
    await writeFile(join(dir, '20260101000000_init', 'migration.sql'), `CREATE TABLE things (id text primary key); -- ${dir}`);
    const dbs = await Promise.all([1, 2, 3].map(() => createTestDatabase('kit', dir)));
    created.push(...dbs);
    expect(new Set(dbs.map((d) => d.url)).size).toBe(3);
    const [a, b] = dbs.map((db) => new pg.Client({ connectionString: db.url }));
    await a!.connect();
    await b!.connect();
    await a!.query("INSERT INTO things VALUES ('only-in-a')");
    const inB = await b!.query('SELECT count(*)::int AS n FROM things');
    await a!.end();
    await b!.end();
    expect(inB.rows[0]).toEqual({ n: 0 });
  });
});

describe('openTestPool', () => {
  // A harness's drop (DROP DATABASE … WITH (FORCE)) can reach a test pool whose end() has resolved
  // before its connections closed; the cut connection must not throw into a test (CI, stop 42).
  it('survives its database being dropped under an idle connection', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hc-kit-'));
    await mkdir(join(dir, '20260101000000_init'));
    await writeFile(join(dir, '20260101000000_init', 'migration.sql'), `CREATE TABLE things (id text primary key); -- ${dir}`);
    const db = await createTestDatabase('kit', dir);
    const pool = openTestPool(db.url);
    // A plain pool beside it shows that the server does cut the idle connections (57P01).
    const plain = new pg.Pool({ connectionString: db.url, max: 1 });
    const cut = new Promise<string | undefined>((resolve) => plain.once('error', (error) => resolve((error as { code?: string }).code)));
    await Promise.all([pool.query('SELECT 1'), plain.query('SELECT 1')]);
    expect(pool.idleCount).toBe(1);

    await db.drop();

    expect(await cut).toBe('57P01');
    expect(
      await eventually(
        async () => pool.totalCount,
        (n) => n === 0,
        10_000,
      ),
    ).toBe(0);
    await Promise.all([pool.end(), plain.end()]);
  });
});

describe('helpers', () => {
  it('makes distinct NATS prefixes', () => {
    expect(testNatsPrefix('x')).not.toBe(testNatsPrefix('x'));
  });

  it('moves a test clock only when told', () => {
    const clock = new TestClock(new Date('2026-01-01T00:00:00Z'));
    clock.advance(1000);
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:01.000Z');
  });
});
