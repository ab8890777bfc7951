// Risk covered: a service (re)starting while PostgreSQL is away crashing at boot instead of waiting
// for it, or waiting forever when it never comes.
import { expect, it } from '@jest/globals';
import { waitForDatabase } from '@hc/db';
import { startDisposablePostgres, testDatabaseServerUrl } from '../src/index.ts';

it('returns at once when the database answers', async () => {
  await expect(waitForDatabase(testDatabaseServerUrl(), { timeoutMs: 5_000 })).resolves.toBeUndefined();
});

it('gives up with the last error after its timeout when nothing answers', async () => {
  const retries: string[] = [];
  await expect(
    waitForDatabase('postgresql://postgres@127.0.0.1:1/postgres', {
      timeoutMs: 300,
      intervalMs: 50,
      onRetry: (e) => retries.push(e.message),
    }),
  ).rejects.toThrow(/ECONNREFUSED/);
  expect(retries.length).toBeGreaterThan(1);
});

it('waits through a PostgreSQL restart and returns once it is back', async () => {
  const postgres = await startDisposablePostgres();
  try {
    const restarting = postgres.restart(800);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const retries: string[] = [];
    await waitForDatabase(postgres.url, { timeoutMs: 20_000, intervalMs: 100, onRetry: (e) => retries.push(e.message) });
    await restarting;
    expect(retries.length).toBeGreaterThan(0);
  } finally {
    await postgres.stop();
  }
}, 30_000);
