// Risk covered: a write that records something already done outside the database (a mail the SMTP
// server accepted) given up at the first lost connection of a failover, so the thing is done twice
// when its lease runs out; or retried for errors that are not the database being away, or past its
// deadline. The lost connections are node-postgres's own, from a port that cuts every connection.
import { createServer, type AddressInfo } from 'node:net';
import { expect, it } from '@jest/globals';
import { createPool, retryWhileDatabaseAway } from '../src/index.ts';

const url = process.env['TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** A pool on a port that takes each connection and closes it, as HAProxy does while no node is primary. */
async function cutting(): Promise<{ query(): Promise<unknown>; close(): Promise<void> }> {
  const proxy = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const pool = createPool(`postgresql://postgres@127.0.0.1:${(proxy.address() as AddressInfo).port}/postgres`, { max: 1 });
  return {
    query: () => pool.query('SELECT 1'),
    async close() {
      await pool.end();
      proxy.close();
    },
  };
}

it('retries through lost connections until the database answers again', async () => {
  const away = await cutting();
  const good = createPool(url, { max: 1 });
  let tries = 0;
  const retried: string[] = [];
  try {
    // The first three tries meet the database away (lost connections), the fourth reaches it.
    const result = await retryWhileDatabaseAway(
      async () => {
        tries += 1;
        if (tries <= 3) await away.query();
        return (await good.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one;
      },
      { deadline: Date.now() + 10_000, firstDelayMs: 10, onRetry: (error) => retried.push((error as Error).message) },
    );
    expect(result).toBe(1);
    expect(retried).toEqual(Array(3).fill('Connection terminated unexpectedly'));
  } finally {
    await away.close();
    await good.end();
  }
});

it('gives up with the last error at its deadline, and never retries an error that is not the database away', async () => {
  const away = await cutting();
  try {
    let tries = 0;
    const counted = () => {
      tries += 1;
      return away.query();
    };
    await expect(retryWhileDatabaseAway(counted, { deadline: Date.now() + 300, firstDelayMs: 20 })).rejects.toThrow(
      'Connection terminated unexpectedly',
    );
    expect(tries).toBeGreaterThan(1);
    tries = 0;
    const bug = async () => {
      tries += 1;
      throw new Error('a bug');
    };
    await expect(retryWhileDatabaseAway(bug, { deadline: Date.now() + 10_000 })).rejects.toThrow('a bug');
    expect(tries).toBe(1);
  } finally {
    await away.close();
  }
});
