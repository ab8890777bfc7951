import type pg from 'pg';

interface Waiter {
  readonly key: string;
  resolve(position: number): void;
  reject(error: unknown): void;
}

/**
 * Counters in PostgreSQL, added to in groups (docs/adr/0031): while one upsert is on its way, every
 * point that arrives waits for the next, and that one statement adds them all (one row per key) and
 * returns each key's new total. Each caller learns its own position in the shared count, so the
 * count stays exact across processes — the database orders them — at one statement per group
 * instead of one per request. A lone request still costs one statement, as before; it goes out at
 * the end of the event loop's turn it was made in.
 *
 * A key's window starts at its first point and lasts `windowMs` by the database's clock (one clock
 * for every process); the first point after it ended starts the next window at 1.
 */
export class CoalescedCounters {
  private readonly pool: pg.Pool;
  private readonly table: string;
  private readonly windowMs: number;
  private queue: Waiter[] = [];
  private flushing = false;

  constructor(pool: pg.Pool, table: string, windowMs: number) {
    this.pool = pool;
    this.table = table;
    this.windowMs = windowMs;
  }

  /** Adds one point to `key`; resolves this point's position in the key's current window (1 = first). */
  add(key: string): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ key, resolve, reject });
      if (this.flushing) return;
      // The first upsert waits for the end of this turn of the event loop and takes every point
      // added in it: the requests read from many sockets at once share it (docs/adr/0072).
      this.flushing = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const group = this.queue;
        this.queue = [];
        await this.apply(group);
      }
    } finally {
      this.flushing = false;
    }
  }

  /** One upsert for the group; then each waiter gets its position, in arrival order per key. */
  private async apply(group: Waiter[]): Promise<void> {
    const perKey = new Map<string, { points: number; waiters: Waiter[] }>();
    for (const waiter of group) {
      const entry = perKey.get(waiter.key) ?? { points: 0, waiters: [] };
      entry.points += 1;
      entry.waiters.push(waiter);
      perKey.set(waiter.key, entry);
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
