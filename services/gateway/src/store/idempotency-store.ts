import { groupCommitEach } from '@hc/batching';
import type pg from 'pg';

export interface IdempotencyScope {
  readonly accountId: string;
  readonly livemode: boolean;
  readonly key: string;
}

export interface IdempotencyRecord {
  /** Names the create and fingerprints its body (domain/idempotency.ts). */
  readonly requestHash: string;
  /**
   * The id the created object gets (a session's or link's `pay_`, an endpoint's `we_`), chosen before
   * the owning service is called. Its column is still `session_id`: sessions were the first create
   * to take a key, and gateways of earlier releases read that column.
   */
  readonly objectId: string;
  /** Until then the request that claimed the key owns it; afterwards a retry may take over. */
  readonly lockedUntil: Date;
  readonly expiresAt: Date;
}

const SCOPE = 'account_id = $1 AND livemode = $2 AND key = $3';
const scopeValues = (scope: IdempotencyScope): unknown[] => [scope.accountId, scope.livemode, scope.key];

/**
 * Claiming keys is ONE statement per group (docs/adr/0062): each new key is inserted; a taken one whose
 * record expired is replaced in place (an old key makes a new object), under the row lock ON CONFLICT
 * takes; a taken live one is left alone and returns no row. So across every gateway process exactly
 * one request owns a key at a time. The rows are sorted by key, so two processes' groups take their
 * row locks in the same order and cannot deadlock on each other.
 *
 * `state` is written 'running' and never read (docs/adr/0070): gateways of the previous release, during
 * a rolling update, still read it and mark records 'done'; the column goes once none of them runs.
 */
const CLAIM_MANY_SQL = `INSERT INTO idempotency_records AS r
    (account_id, livemode, key, request_hash, session_id, state, locked_until, created_at, expires_at)
  SELECT k.account_id, k.livemode, k.key, k.request_hash, k.session_id, 'running', k.locked_until, k.created_at, k.expires_at
    FROM unnest($1::text[], $2::boolean[], $3::text[], $4::text[], $5::text[],
                $6::timestamptz[], $7::timestamptz[], $8::timestamptz[])
      AS k(account_id, livemode, key, request_hash, session_id, locked_until, created_at, expires_at)
  ON CONFLICT (account_id, livemode, key) DO UPDATE SET
    request_hash = EXCLUDED.request_hash, session_id = EXCLUDED.session_id, state = EXCLUDED.state,
    locked_until = EXCLUDED.locked_until, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
  WHERE r.expires_at <= EXCLUDED.created_at
  RETURNING r.account_id, r.livemode, r.key`;

interface Claim {
  readonly scope: IdempotencyScope;
  readonly record: IdempotencyRecord;
  readonly now: Date;
}

const scopeKey = (scope: IdempotencyScope): string => `${scope.accountId}\u0000${String(scope.livemode)}\u0000${scope.key}`;
/** A group's scopes as the statements' first three arrays (account ids, modes, keys) for unnest. */
const scopeColumns = (items: readonly { readonly scope: IdempotencyScope }[]): [string[], boolean[], string[]] => [
  items.map((item) => item.scope.accountId),
  items.map((item) => item.scope.livemode),
  items.map((item) => item.scope.key),
];
const byScope = (a: Claim, b: Claim): number => {
  const [x, y] = [scopeKey(a.scope), scopeKey(b.scope)];
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * The only code that knows idempotency_records: prepared statements on the gateway's pg pool (the
 * create path's writes, docs/adr/0030). The create path's one write, the claim, is committed in groups
 * (docs/adr/0062): the claims that arrive while one group's statement runs go together in the next,
 * and a group whose statement fails is retried one by one, so each caller gets the answer its own
 * statement would have given. A record is not written again after a successful create (docs/adr/0070).
 */
export class IdempotencyStore {
  private readonly pool: pg.Pool;
  private readonly claims: (claim: Claim) => Promise<boolean>;

  constructor(pool: pg.Pool) {
    this.pool = pool;
    this.claims = groupCommitEach({ many: (claims) => this.claimMany(claims), one: async (claim) => (await this.claimMany([claim]))[0]! });
  }

  /** Inserts a running record (replacing an expired one); false when the key is taken. */
  async claim(scope: IdempotencyScope, record: IdempotencyRecord, now: Date): Promise<boolean> {
    return this.claims({ scope, record, now });
  }

  /**
   * One statement for a group of claims. The same key twice in a group is claimed once: its first
   * claim goes into the statement (ON CONFLICT could not touch one row twice anyway), the others are
   * answered "taken" and go on as a concurrent duplicate does, waiting for the owner.
   */
  private async claimMany(claims: readonly Claim[]): Promise<boolean[]> {
    const firsts = new Map<string, Claim>();
    for (const claim of claims) if (!firsts.has(scopeKey(claim.scope))) firsts.set(scopeKey(claim.scope), claim);
    const rows = [...firsts.values()].sort(byScope);
    const { rows: claimed } = await this.pool.query<{ account_id: string; livemode: boolean; key: string }>({
      name: 'idempotency_claim_many',
      text: CLAIM_MANY_SQL,
      values: [
        ...scopeColumns(rows),
        rows.map((c) => c.record.requestHash),
        rows.map((c) => c.record.objectId),
        rows.map((c) => c.record.lockedUntil),
        rows.map((c) => c.now),
        rows.map((c) => c.record.expiresAt),
      ],
    });
    const won = new Set(claimed.map((row) => scopeKey({ accountId: row.account_id, livemode: row.livemode, key: row.key })));
    return claims.map((claim) => firsts.get(scopeKey(claim.scope)) === claim && won.has(scopeKey(claim.scope)));
  }

  async find(scope: IdempotencyScope): Promise<IdempotencyRecord | null> {
    const { rows } = await this.pool.query<IdempotencyRecord>({
      name: 'idempotency_find',
      text: `SELECT request_hash AS "requestHash", session_id AS "objectId", locked_until AS "lockedUntil",
                    expires_at AS "expiresAt"
               FROM idempotency_records WHERE ${SCOPE}`,
      values: scopeValues(scope),
    });
    return rows[0] ?? null;
  }

  /**
   * Takes over the record whose owner stopped answering (its lock ran out), only while it still holds
   * `objectId`: the record the caller read, not one that replaced it meanwhile.
   */
  async takeOver(scope: IdempotencyScope, objectId: string, now: Date, lockedUntil: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query({
      name: 'idempotency_take_over',
      text: `UPDATE idempotency_records SET locked_until = $5 WHERE ${SCOPE} AND locked_until <= $4 AND session_id = $6`,
      values: [...scopeValues(scope), now, lockedUntil, objectId],
    });
    return rowCount === 1;
  }

  /** Lets the next retry take over at once (the attempt failed in a way that may or may not have created). */
  async release(scope: IdempotencyScope, now: Date): Promise<void> {
    await this.pool.query({
      name: 'idempotency_release',
      text: `UPDATE idempotency_records SET locked_until = $4 WHERE ${SCOPE}`,
      values: [...scopeValues(scope), now],
    });
  }

  /** Forgets the key: the request was refused and is not remembered. */
  async forget(scope: IdempotencyScope, objectId: string): Promise<void> {
    await this.pool.query({
      name: 'idempotency_forget',
      text: `DELETE FROM idempotency_records WHERE ${SCOPE} AND session_id = $4`,
      values: [...scopeValues(scope), objectId],
    });
  }

  async purgeExpired(now: Date): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM idempotency_records WHERE expires_at <= $1', [now]);
    return rowCount ?? 0;
  }
}
