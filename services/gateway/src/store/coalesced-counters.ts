import type pg from 'pg';

interface Waiter {
  readonly key: string;
  readonly expireMs: number;
  resolve(position: number): void;
  reject(error: unknown): void;
}

/**
 * Counters in PostgreSQL, added to in groups (docs/adr/0031): while one upsert is on its way, every
 * point that arrives waits for the next, and that one statement adds them all (one row per key) and
 * returns each key's new total. Each caller learns its own position in the shared count, so the
 * count stays exact across processes — the database orders them — at one statement per group
 * instead of one per request. A lone request still costs one statement, as before.
 */
export class CoalescedCounters {
  private readonly pool: pg.Pool;
  private readonly table: string;
  private queue: Waiter[] = [];
  private flushing = false;

  constructor(pool: pg.Pool, table: string) {
    this.pool = pool;
    this.table = table;
  }

  /** Adds one point to `key` (a row that expires at `expireMs`); resolves this point's position (1 = first). */
  add(key: string, expireMs: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ key, expireMs, resolve, reject });
      if (!this.flushing) void this.flush();
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
    const perKey = new Map<string, { points: number; expireMs: number; waiters: Waiter[] }>();
    for (const waiter of group) {
      const entry = perKey.get(waiter.key) ?? { points: 0, expireMs: waiter.expireMs, waiters: [] };
      entry.points += 1;
      entry.waiters.push(waiter);
      perKey.set(waiter.key, entry);
    }
    const keys = [...perKey.keys()];
    let totals: Map<string, number>;
    try {
      const { rows } = await this.pool.query<{ key: string; points: number }>({
        name: `coalesced-counters-${this.table}`,
        text: `INSERT INTO ${this.table} (key, points, expire)
                 SELECT * FROM unnest($1::varchar[], $2::int[], $3::bigint[])
               ON CONFLICT (key) DO UPDATE SET points = ${this.table}.points + EXCLUDED.points
               RETURNING key, points`,
        values: [keys, keys.map((k) => perKey.get(k)!.points), keys.map((k) => perKey.get(k)!.expireMs)],
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
