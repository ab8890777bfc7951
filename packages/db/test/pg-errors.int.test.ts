// Risk covered: a database refusal of a bad value (SQLSTATE class 22) not being recognised, so it
// becomes a 500 instead of 400 invalid_request; or another failure (a unique violation, a lost
// connection) being mistaken for the caller's fault. Errors come from a real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { badValueError, sqlStateOf } from '../src/index.ts';

const url = process.env['TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const client = new pg.Client({ connectionString: url });

beforeAll(async () => {
  await client.connect();
  await client.query('CREATE TEMP TABLE bad_values (short varchar(3), small int4 UNIQUE)');
});
afterAll(async () => {
  await client.end();
});

/** The error PostgreSQL raises for `sql`. */
async function refusal(sql: string, values: unknown[] = []): Promise<unknown> {
  try {
    await client.query(sql, values);
  } catch (error) {
    return error;
  }
  throw new Error(`PostgreSQL accepted: ${sql}`);
}

describe('bad values from PostgreSQL are 400 invalid_request', () => {
  it.each([
    ['a NUL byte in text (22021)', 'INSERT INTO bad_values (short) VALUES ($1)', ['a\u0000'], '22021'],
    ['a value too long for its column (22001)', 'INSERT INTO bad_values (short) VALUES ($1)', ['abcd'], '22001'],
    ['a number out of range (22003)', 'INSERT INTO bad_values (small) VALUES ($1)', ['4294967296'], '22003'],
    ['text that is not a number (22P02)', 'INSERT INTO bad_values (small) VALUES ($1)', ['ten'], '22P02'],
  ])('%s', async (_label, sql, values, state) => {
    const error = await refusal(sql, values);
    expect(sqlStateOf(error)).toBe(state);
    expect(badValueError(error)?.toBody()).toEqual({ error: { code: 'invalid_request', message: expect.any(String) } });
    expect(badValueError(error)?.httpStatus).toBe(400);
  });

  it('the same state inside a Prisma driver-adapter error (meta.driverAdapterError.cause.originalCode) is recognised', () => {
    const prismaShaped = { code: 'P2039', meta: { driverAdapterError: { cause: { originalCode: '22021', kind: 'postgres' } } } };
    expect(badValueError(prismaShaped)?.code).toBe('invalid_request');
    expect(badValueError({ code: 'P2000', meta: { column_name: 'short' } })?.code).toBe('invalid_request');
  });
});

describe('other failures are not the caller’s bad value', () => {
  it('a unique violation (23505) is not a bad value', async () => {
    await client.query('INSERT INTO bad_values (small) VALUES (1)');
    const error = await refusal('INSERT INTO bad_values (small) VALUES (1)');
    expect(sqlStateOf(error)).toBe('23505');
    expect(badValueError(error)).toBeUndefined();
  });

  it('a syntax error of ours (42601) and a non-database error are not bad values', async () => {
    expect(badValueError(await refusal('SELEC 1'))).toBeUndefined();
    expect(badValueError(new Error('boom'))).toBeUndefined();
    expect(badValueError(null)).toBeUndefined();
  });
});
