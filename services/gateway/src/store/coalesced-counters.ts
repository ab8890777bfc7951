import { Batcher, UNLIMITED, type Pending } from '@hc/batching';
import type pg from 'pg';

type Waiter = Pending<string, number>;

/**
 * Counters in PostgreSQL, added to in groups (docs/adr/0031): while one upsert is on its way, every
 * point that arrives waits for the next, and that one statement adds them all (one row per key) and
 * returns each key's new total. Each caller learns its own position in the shared count, so the
 * count stays exact across processes — the database orders them — at one statement per group
 * instead of one per request: a Batcher with one upsert in flight (docs/batching.md). A lone request
 * still costs one statement, as before; it goes out at the end of the event loop's turn it was made in.
 *
 * A key's window starts at its first point and lasts `windowMs` by the database's clock (one clock
 * for every process); the first point after it ended starts the next window at 1.
 */
export class CoalescedCounters {
  private readonly pool: pg.Pool;
  private readonly table: string;
  private readonly windowMs: number;
  private readonly upserts = new Batcher<string, number>({
    maxInFlight: 1,
    maxGroupSize: UNLIMITED,
    run: (group) => this.apply(group),
  });

  constructor(pool: pg.Pool, table: string, windowMs: number) {
    this.pool = pool;
    this.table = table;
    this.windowMs = windowMs;
  }

  /** Adds one point to `key`; resolves this point's position in the key's current window (1 = first). */
  add(key: string): Promise<number> {
    return this.upserts.add(key);
  }

  /** One upsert for the group; then each waiter gets its position, in arrival order per key. */
  private async apply(group: readonly Waiter[]): Promise<void> {
    const perKey = new Map<string, { points: number; waiters: Waiter[] }>();
    for (const waiter of group) {
      const entry = perKey.get(waiter.item) ?? { points: 0, waiters: [] };
      entry.points += 1;
      entry.waiters.push(waiter);
      perKey.set(waiter.item, entry);
    }
    const keys = [...perKey.keys()];
    let totals: Map<string, number>;
    try {
      // expire is in epoch milliseconds; a row whose window ended restarts with this group's points.
      const { rows } = await this.pool.query<{ key: string; points: number }>({
        name: `coalesced-counters-${this.table}`,
        text: `INSERT INTO ${this.table} AS t (key, points, expire)
                 SELECT u.key, u.points, (extract(epoch FROM clock_timestamp()) * 1000)::bigint + $3
                   FROM unnest($1::varchar[], $2::int[]) AS u(key, points)
               ON CONFLICT (key) DO UPDATE SET
                 points = CASE WHEN t.expire <= EXCLUDED.expire - $3 THEN EXCLUDED.points ELSE t.points + EXCLUDED.points END,
                 expire = CASE WHEN t.expire <= EXCLUDED.expire - $3 THEN EXCLUDED.expire ELSE t.expire END
               RETURNING key, points`,
        values: [keys, keys.map((k) => perKey.get(k)!.points), this.windowMs],
      });
      totals = new Map(rows.map((row) => [row.key, row.points]));
    } catch (error) {
      for (const waiter of group) waiter.reject(error);
      return;
    }
    for (const [key, entry] of perKey) {
      const total = totals.get(key);
      entry.waiters.forEach((waiter, i) =>
        total === undefined ? waiter.reject(new Error(`counter ${key} not returned`)) : waiter.resolve(total - entry.points + i + 1),
      );
    }
  }
}
