// Risk covered: a failover that loses an acknowledged commit, or a client address that does not follow
// the primary (docs/adr/0091). The disposable Patroni cluster: rows are committed one by one through
// HAProxy while the primary's Patroni and PostgreSQL are SIGKILLed; every row whose COMMIT was answered
// must be on the promoted standby, HAProxy must lead to it, and the old primary must rejoin as standby.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { startDisposablePostgresCluster, type DisposablePostgresCluster } from '../src/index.ts';

let cluster: DisposablePostgresCluster;

beforeAll(async () => {
  cluster = await startDisposablePostgresCluster();
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
});

/** Commits rows 1, 2, … on fresh connections through HAProxy until `stop()`; the ids whose COMMIT was acknowledged. */
function writeSteadily(url: string): { stop(): Promise<{ acknowledged: number[]; failed: number }> } {
  const acknowledged: number[] = [];
  let failed = 0;
  let running = true;
  const loop = (async () => {
    for (let id = 1; running; id += 1) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('INSERT INTO ledger (id) VALUES ($1)', [id]);
        acknowledged.push(id);
      } catch {
        failed += 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { acknowledged, failed };
    },
  };
}

it('keeps every acknowledged commit across a kill -9 of the primary and follows the new primary', async () => {
  const setup = new pg.Client({ connectionString: cluster.url });
  await setup.connect();
  await setup.query('CREATE TABLE ledger (id integer PRIMARY KEY)');
  await setup.end();
  const old = (await cluster.primary())!;
  const writer = writeSteadily(cluster.url);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  await old.kill();
  const promoted = await cluster.waitForPrimary({ not: old, timeoutMs: 60_000 });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const { acknowledged, failed } = await writer.stop();

  const check = new pg.Client({ connectionString: cluster.url });
  await check.connect();
  const onPrimary = await check.query<{ id: number; standby: boolean }>(
    'SELECT id, pg_is_in_recovery() AS standby FROM ledger ORDER BY id',
  );
  await check.end();
  const stored = new Set(onPrimary.rows.map((row) => row.id));
  const lost = acknowledged.filter((id) => !stored.has(id));
  process.stdout.write(
    `postgres cluster: ${old.name} killed, ${promoted.name} promoted; ${acknowledged.length} commits acknowledged, ${failed} failed during the failover, ${lost.length} lost\n`,
  );
  expect(promoted).not.toBe(old);
  expect(onPrimary.rows.some((row) => row.standby)).toBe(false);
  // Rows were committed before and after the failover, and none acknowledged is missing.
  expect(acknowledged.length).toBeGreaterThan(5);
  expect(failed).toBeGreaterThan(0);
  expect(lost).toEqual([]);

  old.start();
  await cluster.waitForSyncStandby(old, 90_000);
  expect(await old.role()).toBe('replica');
  expect(await promoted.role()).toBe('primary');
}, 300_000);
