// Risk covered: rate-limit counting in groups (docs/adr/0031) losing or double-counting points —
// two gateway processes counting the same account concurrently must hand out every position exactly
// once — or a failed group leaving its callers hanging or poisoning the next group.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type pg from 'pg';
import { createTestDatabase, type TestDatabase, openTestPool } from '@hc/test-kit';
import { GATEWAY_MIGRATIONS_DIR } from '../src/index.ts';
import { CoalescedCounters } from '../src/store/coalesced-counters.ts';

let db: TestDatabase;
let pools: pg.Pool[];
beforeAll(async () => {
  db = await createTestDatabase('gateway', GATEWAY_MIGRATIONS_DIR);
  pools = [openTestPool(db.url, 2), openTestPool(db.url, 2)];
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await db.drop();
});

/** Counts the statements sent through `pool` until stop(). */
function countStatements(pool: pg.Pool): { count: () => number; stop: () => void } {
  let statements = 0;
  const query = pool.query.bind(pool);
  pool.query = ((...args: Parameters<typeof query>) => {
    statements += 1;
    return query(...args);
  }) as typeof query;
  return { count: () => statements, stop: () => (pool.query = query) };
}

describe('CoalescedCounters', () => {
  it('hands out every position of a shared count exactly once across two processes, in far fewer statements', async () => {
    const [a, b] = pools.map((pool) => new CoalescedCounters(pool, 'rate_limits', 60_000));
    const statements = countStatements(pools[0]!);
    const positions = await Promise.all(Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? a! : b!).add('requests:acct_x')));
    expect([...positions].sort((x, y) => x - y)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    // Process a grouped its 200 points into far fewer upserts.
    expect(statements.count()).toBeLessThan(200);
    statements.stop();
    const { rows } = await pools[0]!.query<{ points: number }>(`SELECT points FROM rate_limits WHERE key = 'requests:acct_x'`);
    expect(rows[0]!.points).toBe(400);
    // Another key is counted apart.
    expect(await a!.add('requests:acct_y')).toBe(1);
  });

  it('adds the points of one turn of the event loop in one upsert, the first included (docs/adr/0072)', async () => {
    const counters = new CoalescedCounters(pools[1]!, 'rate_limits', 60_000);
    const statements = countStatements(pools[1]!);
    try {
      const positions = await Promise.all(Array.from({ length: 50 }, () => counters.add('requests:acct_turn')));
      expect(positions).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(statements.count()).toBe(1);
    } finally {
      statements.stop();
    }
  });

  it('rejects every waiter of a group the database refuses, and counts again once it answers', async () => {
    const broken = openTestPool(db.url, 1);
    const counters = new CoalescedCounters(broken, 'no_such_table', 60_000);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => counters.add('k')));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    await broken.end();
    const healthy = new CoalescedCounters(pools[1]!, 'rate_limits', 60_000);
    expect(await healthy.add('requests:acct_z')).toBe(1);
  });

  it("starts a key's window at its first point and restarts it at 1 once the window has ended", async () => {
    const counters = new CoalescedCounters(pools[0]!, 'rate_limits', 300);
    expect(await counters.add('requests:acct_w')).toBe(1);
    expect(await counters.add('requests:acct_w')).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await Promise.all([counters.add('requests:acct_w'), counters.add('requests:acct_w')])).toEqual([1, 2]);
    expect(await counters.add('requests:acct_w')).toBe(3);
  });
});
