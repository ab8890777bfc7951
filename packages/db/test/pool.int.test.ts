// Risk covered: a transaction helper that commits half a change (work failed after some writes),
// leaves a connection inside an open transaction for the next caller, lets a stuck statement hold
// its locks forever, or reuses a connection the server cut mid-transaction. Real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type pg from 'pg';
import { createPool, inTransaction } from '../src/index.ts';

const url = process.env['TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const table = `pool_test_${process.pid}`;
let pool: pg.Pool;

beforeAll(async () => {
  pool = createPool(url, { max: 1 });
  await pool.query(`CREATE TABLE ${table} (id int PRIMARY KEY)`);
});
afterAll(async () => {
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
  await pool.end();
});

const ids = async (): Promise<number[]> => (await pool.query<{ id: number }>(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => r.id);

describe('inTransaction', () => {
  it('commits what the work wrote and resolves its result', async () => {
    const result = await inTransaction(pool, { statementTimeoutMs: 5_000 }, async (client) => {
      await client.query(`INSERT INTO ${table} VALUES (1), (2)`);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await ids()).toEqual([1, 2]);
  });

  it('rolls back every write when the work fails after some, and hands the connection back clean', async () => {
    const failing = inTransaction(pool, { statementTimeoutMs: 5_000 }, async (client) => {
      await client.query(`INSERT INTO ${table} VALUES (3)`);
      await client.query(`INSERT INTO ${table} VALUES (1)`); // duplicate key
    });
    await expect(failing).rejects.toMatchObject({ code: '23505' });
    expect(await ids()).toEqual([1, 2]);
    // The pool's one connection is outside any transaction again (a leftover BEGIN would show here).
    expect((await pool.query<{ now: Date }>('SELECT now() = statement_timestamp() AS now')).rows[0]!.now).toBe(true);
  });

  it('ends a statement that runs past the timeout, and the timeout stays inside the transaction', async () => {
    const slow = inTransaction(pool, { statementTimeoutMs: 100 }, (client) => client.query('SELECT pg_sleep(2)'));
    await expect(slow).rejects.toMatchObject({ code: '57014' });
    expect((await pool.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]!.statement_timeout).toBe('0');
  });

  it('destroys a connection the server ended mid-transaction instead of reusing it', async () => {
    const cut = inTransaction(pool, { statementTimeoutMs: 5_000 }, async (client) => {
      await client.query(`INSERT INTO ${table} VALUES (9)`);
      await client.query('SELECT pg_terminate_backend(pg_backend_pid())');
    });
    await expect(cut).rejects.toThrow();
    // The next transaction gets a new connection and works; the cut one's insert never committed.
    await inTransaction(pool, { statementTimeoutMs: 5_000 }, (client) => client.query(`INSERT INTO ${table} VALUES (4)`));
    expect(await ids()).toEqual([1, 2, 4]);
  });
});
