// Risk covered: a database refusal of a bad value (SQLSTATE class 22) not being recognised, so it
// becomes a 500 instead of 400 invalid_request; or another failure (a unique violation, a lost
// connection) being mistaken for the caller's fault; or a database briefly away (a restart, a
// failover: docs/adr/0091) answered 500 instead of 503 service_unavailable, which clients retry.
// Errors come from a real PostgreSQL and real sockets.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type AddressInfo, type Server } from 'node:net';
import pg from 'pg';
import { badValueError, createPool, databaseUnavailableError, sqlStateOf } from '../src/index.ts';

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

/** The error `work` fails with. */
async function failure(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('it did not fail');
}

/** A TCP server that takes each connection and closes it at once: HAProxy with no primary to route to. */
async function closingServer(): Promise<Server> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

describe('a database briefly away is 503 service_unavailable', () => {
  it('a connection the server ends mid-session (57P01, as a primary shutting down does)', async () => {
    const victim = new pg.Client({ connectionString: url });
    victim.on('error', () => undefined);
    await victim.connect();
    const pid = (await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const ended = failure(() => victim.query('SELECT pg_sleep(10)'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await client.query('SELECT pg_terminate_backend($1)', [pid]);
    const error = await ended;
    await victim.end().catch(() => undefined);
    expect(databaseUnavailableError(error)?.toBody().error.code).toBe('service_unavailable');
    expect(databaseUnavailableError(error)?.httpStatus).toBe(503);
  });

  it('a pool whose connection is cut before PostgreSQL answers (HAProxy with no primary at a failover)', async () => {
    const proxy = await closingServer();
    const pool = createPool(`postgresql://postgres@127.0.0.1:${(proxy.address() as AddressInfo).port}/postgres`, { max: 1 });
    try {
      const error = await failure(() => pool.query('SELECT 1'));
      expect((error as Error).message).toBe('Connection terminated unexpectedly');
      expect(databaseUnavailableError(error)?.code).toBe('service_unavailable');
    } finally {
      await pool.end();
      proxy.close();
    }
  });

  it('nothing listening (ECONNREFUSED), and no connection in time', async () => {
    const refused = await failure(() => new pg.Client({ connectionString: 'postgresql://postgres@127.0.0.1:1/postgres' }).connect());
    expect(databaseUnavailableError(refused)?.code).toBe('service_unavailable');
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const pool = createPool(`postgresql://postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/postgres`, {
      max: 1,
      connectionTimeoutMs: 200,
    });
    try {
      expect(databaseUnavailableError(await failure(() => pool.query('SELECT 1')))?.code).toBe('service_unavailable');
    } finally {
      await pool.end();
      silent.close();
    }
  });

  it("Prisma's codes for an unreachable server or a closed connection, and a lost connection as a cause", () => {
    expect(databaseUnavailableError({ code: 'P1017', message: 'Server has closed the connection.' })?.code).toBe('service_unavailable');
    expect(databaseUnavailableError({ code: 'P2024' })?.code).toBe('service_unavailable');
    // As settlement's interactive transaction reported it while its pool reconnected through a failover.
    const notStarted = { code: 'P2028', message: 'Transaction API error: Unable to start a transaction in the given time.' };
    expect(databaseUnavailableError(notStarted)?.code).toBe('service_unavailable');
    expect(databaseUnavailableError({ code: 'P2028', message: 'Transaction API error: Transaction already closed.' })).toBeUndefined();
    const wrapped = new Error('query failed', { cause: new Error('Connection terminated unexpectedly') });
    expect(databaseUnavailableError(wrapped)?.code).toBe('service_unavailable');
  });

  it('a bad value, a unique violation, our syntax error or any other error is not', async () => {
    expect(databaseUnavailableError(await refusal('INSERT INTO bad_values (short) VALUES ($1)', ['abcd']))).toBeUndefined();
    await client.query('INSERT INTO bad_values (small) VALUES (2)');
    expect(databaseUnavailableError(await refusal('INSERT INTO bad_values (small) VALUES (2)'))).toBeUndefined();
    expect(databaseUnavailableError(await refusal('SELEC 1'))).toBeUndefined();
    expect(databaseUnavailableError(new Error('boom'))).toBeUndefined();
    expect(databaseUnavailableError(null)).toBeUndefined();
  });
});
