import type pg from 'pg';

export interface IdempotencyScope {
  readonly accountId: string;
  readonly livemode: boolean;
  readonly key: string;
}

export interface IdempotencyRecord {
  readonly requestHash: string;
  readonly sessionId: string;
  readonly state: 'running' | 'done';
  readonly lockedUntil: Date;
  readonly expiresAt: Date;
}

const SCOPE = 'account_id = $1 AND livemode = $2 AND key = $3';
const scopeValues = (scope: IdempotencyScope): unknown[] => [scope.accountId, scope.livemode, scope.key];

/**
 * Claiming a key is ONE statement: a new key is inserted; a taken one whose record expired is
 * replaced in place (an old key makes a new session), under the row lock ON CONFLICT takes; a taken
 * live one is left alone and returns no row. So across every gateway process exactly one request
 * owns a key at a time. (It was a Prisma delete of the expired record, then an insert: two round
 * trips plus Prisma's query planning on the create path — docs/performance.md.)
 */
const CLAIM_SQL = `INSERT INTO idempotency_records AS r
    (account_id, livemode, key, request_hash, session_id, state, locked_until, created_at, expires_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
  ON CONFLICT (account_id, livemode, key) DO UPDATE SET
    request_hash = EXCLUDED.request_hash, session_id = EXCLUDED.session_id, state = EXCLUDED.state,
    locked_until = EXCLUDED.locked_until, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
  WHERE r.expires_at <= EXCLUDED.created_at
  RETURNING 1`;

/**
 * The only code that knows idempotency_records: prepared statements on the gateway's pg pool (the
 * create path's writes, docs/adr/0030).
 */
export class IdempotencyStore {
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  /** Inserts a running record (replacing an expired one); false when the key is taken. */
  async claim(scope: IdempotencyScope, record: IdempotencyRecord, now: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query({
      name: 'idempotency_claim',
      text: CLAIM_SQL,
      values: [...scopeValues(scope), record.requestHash, record.sessionId, record.state, record.lockedUntil, now, record.expiresAt],
    });
    return rowCount === 1;
  }

  async find(scope: IdempotencyScope): Promise<IdempotencyRecord | null> {
    const { rows } = await this.pool.query<IdempotencyRecord>({
      name: 'idempotency_find',
      text: `SELECT request_hash AS "requestHash", session_id AS "sessionId", state, locked_until AS "lockedUntil",
                    expires_at AS "expiresAt"
               FROM idempotency_records WHERE ${SCOPE}`,
      values: scopeValues(scope),
    });
    return rows[0] ?? null;
  }

  /** Takes over a running record whose owner stopped answering (its lock ran out). */
  async takeOver(scope: IdempotencyScope, now: Date, lockedUntil: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query({
      name: 'idempotency_take_over',
      text: `UPDATE idempotency_records SET locked_until = $5 WHERE ${SCOPE} AND state = 'running' AND locked_until <= $4`,
      values: [...scopeValues(scope), now, lockedUntil],
    });
    return rowCount === 1;
  }

  async complete(scope: IdempotencyScope, sessionId: string): Promise<void> {
    await this.pool.query({
      name: 'idempotency_complete',
      text: `UPDATE idempotency_records SET state = 'done' WHERE ${SCOPE} AND session_id = $4`,
      values: [...scopeValues(scope), sessionId],
    });
  }

  /** Lets the next retry take over at once (the attempt failed in a way that may or may not have created). */
  async release(scope: IdempotencyScope, now: Date): Promise<void> {
    await this.pool.query({
      name: 'idempotency_release',
      text: `UPDATE idempotency_records SET locked_until = $4 WHERE ${SCOPE} AND state = 'running'`,
      values: [...scopeValues(scope), now],
    });
  }

  /** Forgets the key: the request was refused and is not remembered. */
  async forget(scope: IdempotencyScope, sessionId: string): Promise<void> {
    await this.pool.query({
      name: 'idempotency_forget',
      text: `DELETE FROM idempotency_records WHERE ${SCOPE} AND session_id = $4 AND state = 'running'`,
      values: [...scopeValues(scope), sessionId],
    });
  }

  async purgeExpired(now: Date): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM idempotency_records WHERE expires_at <= $1', [now]);
    return rowCount ?? 0;
  }
}
