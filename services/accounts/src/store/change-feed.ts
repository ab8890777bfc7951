import type pg from 'pg';

/** One change to a key (by its hash) or to an account (by its id). */
export interface AccountChange {
  readonly position: bigint;
  readonly keyHash: string | null;
  readonly accountId: string | null;
}

// Named, so each connection prepares them once. The feed is read by every gateway's key-cache renewal,
// about ten times a second (docs/adr/0108; before it, once per batch of requests, docs/adr/0085, where
// Prisma's cost of about 0.4 ms of CPU a read was measured: docs/performance.md, issue 48).
const NEWEST = { name: 'account-changes-newest', text: 'SELECT max(position) AS position FROM account_changes' };
const AFTER = {
  name: 'account-changes-after',
  text: 'SELECT position, key_hash, account_id FROM account_changes WHERE position > $1 ORDER BY position LIMIT $2',
};

/**
 * Reads account_changes, the feed the gateways' key caches pull (docs/adr/0085, 0108), with prepared
 * statements: the one way into that table (the tables' triggers write it, in the transaction of each
 * change, taking positions in commit order; nothing here writes it).
 */
export class ChangeFeed {
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  /** The newest position (0 before any change): every change up to it is visible to this read. */
  async position(): Promise<bigint> {
    const { rows } = await this.pool.query<{ position: string | null }>(NEWEST);
    return BigInt(rows[0]?.position ?? 0);
  }

  /** Up to `limit` changes after `after`, oldest first. */
  async after(after: bigint, limit: number): Promise<AccountChange[]> {
    const { rows } = await this.pool.query<{ position: string; key_hash: string | null; account_id: string | null }>({
      ...AFTER,
      values: [after.toString(), limit],
    });
    return rows.map((row) => ({ position: BigInt(row.position), keyHash: row.key_hash, accountId: row.account_id }));
  }
}
