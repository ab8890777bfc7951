import type pg from 'pg';

// Named, so each connection prepares them once. A lease is held or extended by each gateway about ten
// times a second; a change waits on the leases once (docs/adr/0108).
const HOLD = {
  name: 'key-cache-leases-hold',
  text: `INSERT INTO key_cache_leases (cache_id, applied, expires_at, renewal)
           VALUES ($1, coalesce($2::bigint, (SELECT max(position) FROM account_changes), 0),
                   clock_timestamp() + make_interval(secs => $3::double precision / 1000), $4)
         ON CONFLICT (cache_id) DO UPDATE
           SET applied = EXCLUDED.applied, expires_at = EXCLUDED.expires_at, renewal = EXCLUDED.renewal
           WHERE key_cache_leases.renewal < EXCLUDED.renewal
         RETURNING applied`,
};
const BEHIND = {
  name: 'key-cache-leases-behind',
  text: `SELECT count(*)::int AS behind FROM key_cache_leases WHERE applied < $1 AND expires_at > clock_timestamp()`,
};
// A gateway process that stopped leaves its row; a new cache's first hold clears rows long run out.
const FORGET_OLD = {
  name: 'key-cache-leases-forget-old',
  text: `DELETE FROM key_cache_leases WHERE expires_at < clock_timestamp() - interval '1 hour'`,
};

/**
 * The key_cache_leases table (docs/adr/0108), with prepared statements on the pool: the one way into it.
 * Each statement is its own transaction, so a lease's new row is visible to every change that commits
 * after it, before the holder reads the changes it is answered. Expiry is by this database's clock.
 */
export class KeyCacheLeases {
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  /**
   * Records that the cache has applied every change up to `applied` and holds its lease for `leaseMs`
   * from now; a new cache (no `applied`) holds nothing, so it is recorded at the newest position. Answers
   * the position recorded, or undefined when the cache already made a later call (nothing changed).
   */
  async hold(cacheId: string, applied: bigint | undefined, leaseMs: number, renewal: bigint): Promise<bigint | undefined> {
    if (applied === undefined) await this.pool.query(FORGET_OLD);
    const { rows } = await this.pool.query<{ applied: string }>({
      ...HOLD,
      values: [cacheId, applied === undefined ? null : applied.toString(), leaseMs, renewal.toString()],
    });
    return rows[0] === undefined ? undefined : BigInt(rows[0].applied);
  }

  /** How many caches hold a lease that has not run out and have not applied `position` yet. */
  async behind(position: bigint): Promise<number> {
    const { rows } = await this.pool.query<{ behind: number }>({ ...BEHIND, values: [position.toString()] });
    return rows[0]?.behind ?? 0;
  }
}
