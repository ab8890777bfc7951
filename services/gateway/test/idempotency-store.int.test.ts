// Risk covered: the one-statement claim (docs/performance.md) letting two requests own one key — on a
// fresh key or on an expired record being replaced, across two pools like two gateway processes — or
// replacing a live record, or never giving an expired key a new session.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createPool } from '@hc/db';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import type pg from 'pg';
import { GATEWAY_MIGRATIONS_DIR } from '../src/index.ts';
import { IdempotencyStore, type IdempotencyRecord } from '../src/store/idempotency-store.ts';

let db: TestDatabase;
let pools: pg.Pool[];
let stores: IdempotencyStore[];
beforeAll(async () => {
  db = await createTestDatabase('gateway', GATEWAY_MIGRATIONS_DIR);
  pools = [createPool(db.url, { max: 4 }), createPool(db.url, { max: 4 })];
  stores = pools.map((pool) => new IdempotencyStore(pool));
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await db.drop();
});

const HOUR = 60 * 60 * 1000;
// request_hash is char(64): a sha256 in hex, as the gateway stores it.
const hashOf = (objectId: string): string => createHash('sha256').update(objectId).digest('hex');
const record = (objectId: string, now: Date): IdempotencyRecord => ({
  requestHash: hashOf(objectId),
  objectId,
  lockedUntil: new Date(now.getTime() + 30_000),
  expiresAt: new Date(now.getTime() + 24 * HOUR),
});

describe('IdempotencyStore.claim', () => {
  it('claims a new key once; a live record stays as it was', async () => {
    const scope = { accountId: 'acct_a', livemode: false, key: 'k1' };
    const now = new Date();
    expect(await stores[0]!.claim(scope, record('pay_first', now), now)).toBe(true);
    expect(await stores[1]!.claim(scope, record('pay_second', now), now)).toBe(false);
    expect(await stores[0]!.find(scope)).toMatchObject({ objectId: 'pay_first', requestHash: hashOf('pay_first') });
    // The same key in the other mode or another account is another key.
    expect(await stores[0]!.claim({ ...scope, livemode: true }, record('pay_live', now), now)).toBe(true);
    expect(await stores[0]!.claim({ ...scope, accountId: 'acct_b' }, record('pay_b', now), now)).toBe(true);
  });

  it('replaces an expired record: an old key makes a new session', async () => {
    const scope = { accountId: 'acct_a', livemode: false, key: 'k2' };
    const then = new Date();
    expect(await stores[0]!.claim(scope, record('pay_old', then), then)).toBe(true);
    const later = new Date(then.getTime() + 25 * HOUR);
    expect(await stores[1]!.claim(scope, record('pay_new', later), later)).toBe(true);
    expect(await stores[0]!.find(scope)).toMatchObject({
      objectId: 'pay_new',
      expiresAt: record('pay_new', later).expiresAt,
    });
  });

  it.each([
    ['a fresh key', 0],
    ['an expired record', 25 * HOUR],
  ])('hands %s to exactly one of 40 concurrent claims over two pools', async (_name, ageMs) => {
    const scope = { accountId: 'acct_race', livemode: false, key: `race-${ageMs}` };
    const then = new Date();
    if (ageMs > 0) await stores[0]!.claim(scope, record('pay_expired', then), then);
    const now = new Date(then.getTime() + ageMs);
    const wins = await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % 2]!.claim(scope, record(`pay_${i}`, now), now)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    const winner = wins.indexOf(true);
    expect((await stores[0]!.find(scope))?.objectId).toBe(`pay_${winner}`);
  });
});

// Risk covered: the grouped claim (docs/adr/0062) answering one request with another's outcome — a key
// claimed twice in one group, a live record replaced because a neighbour's was expired, a bad row
// failing its whole group — or not sharing statements at all.
describe('claims in groups', () => {
  const scopeOf = (key: string, accountId = 'acct_group') => ({ accountId, livemode: false, key });

  it('concurrent claims share statements, and each learns its own outcome: fresh, live, expired, same key twice', async () => {
    const then = new Date();
    const now = new Date(then.getTime() + 25 * HOUR);
    // Before: a record that is still live at `now`, and one that expired by then.
    await stores[0]!.claim(scopeOf('g-live'), { ...record('pay_live_old', now), expiresAt: new Date(now.getTime() + HOUR) }, then);
    await stores[0]!.claim(scopeOf('g-expired'), record('pay_expired_old', then), then);
    const claims = [
      ...Array.from({ length: 20 }, (_, i) => ({ scope: scopeOf(`g-fresh-${i}`), objectId: `pay_fresh_${i}` })),
      { scope: scopeOf('g-live'), objectId: 'pay_live_new' },
      { scope: scopeOf('g-expired'), objectId: 'pay_expired_new' },
      { scope: scopeOf('g-twice'), objectId: 'pay_twice_a' },
      { scope: scopeOf('g-twice'), objectId: 'pay_twice_b' },
      { scope: { ...scopeOf('g-twice'), livemode: true }, objectId: 'pay_twice_live' },
    ];
    const queries = jest.spyOn(pools[0]!, 'query');
    let won: boolean[];
    try {
      won = await Promise.all(claims.map((c) => stores[0]!.claim(c.scope, record(c.objectId, now), now)));
      expect(queries.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      queries.mockRestore();
    }
    expect(won).toEqual([...claims.slice(0, 20).map(() => true), false, true, true, false, true]);
    expect((await stores[0]!.find(scopeOf('g-live')))?.objectId).toBe('pay_live_old');
    expect((await stores[0]!.find(scopeOf('g-expired')))?.objectId).toBe('pay_expired_new');
    expect((await stores[0]!.find(scopeOf('g-twice')))?.objectId).toBe('pay_twice_a');
    expect((await stores[0]!.find({ ...scopeOf('g-twice'), livemode: true }))?.objectId).toBe('pay_twice_live');
    expect((await stores[0]!.find(scopeOf('g-fresh-7')))?.objectId).toBe('pay_fresh_7');
  });

  it('hands each of 10 keys to exactly one of 80 claims spread over two pools (two gateway processes)', async () => {
    const now = new Date();
    const claims = Array.from({ length: 80 }, (_, i) => ({ key: `g-race-${i % 10}`, objectId: `pay_race_${i}` }));
    const won = await Promise.all(claims.map((c, i) => stores[i % 2]!.claim(scopeOf(c.key), record(c.objectId, now), now)));
    for (let k = 0; k < 10; k += 1) {
      const owners = claims.filter((c, i) => won[i] && c.key === `g-race-${k}`);
      expect(owners).toHaveLength(1);
      expect((await stores[0]!.find(scopeOf(`g-race-${k}`)))?.objectId).toBe(owners[0]!.objectId);
    }
  });

  it('a row PostgreSQL refuses fails its own claim only: the group is retried one by one', async () => {
    const now = new Date();
    // The first claim goes out alone at once; the three arriving meanwhile form the next group.
    const keys = ['g-ok-1', 'g-ok-2', 'g-bad\u0000', 'g-ok-3'];
    const outcomes = await Promise.all(
      keys.map((key, i) =>
        stores[0]!.claim(scopeOf(key), record(`pay_bad_group_${i}`, now), now).then(
          (won) => won,
          (error: unknown) => error,
        ),
      ),
    );
    expect([outcomes[0], outcomes[1], outcomes[3]]).toEqual([true, true, true]);
    expect(outcomes[2]).toBeInstanceOf(Error);
    expect((await stores[0]!.find(scopeOf('g-ok-3')))?.objectId).toBe('pay_bad_group_3');
  });
});

// Risk covered (docs/adr/0070): with no completion written, the owner's lock is all that keeps a retry
// from creating while the owner still may — two retries taking over one key at once, a take-over
// before the lock ran out, a release that does not free the key at once, or a forget that removes a
// newer claim's record.
describe("the owner's lock: take-over, release, forget", () => {
  const scopeOf = (key: string) => ({ accountId: 'acct_lock', livemode: false, key });

  it('a retry takes over only once the lock ran out, and of 20 concurrent retries over two pools exactly one does', async () => {
    const now = new Date();
    await stores[0]!.claim(scopeOf('l-1'), record('pay_l1', now), now);
    const soon = new Date(now.getTime() + 10_000);
    expect(await stores[1]!.takeOver(scopeOf('l-1'), 'pay_l1', soon, new Date(soon.getTime() + 30_000))).toBe(false);
    const after = new Date(now.getTime() + 31_000);
    // Not a record the caller did not read (one that replaced it meanwhile holds another session id).
    expect(await stores[1]!.takeOver(scopeOf('l-1'), 'pay_other', after, new Date(after.getTime() + 30_000))).toBe(false);
    const wins = await Promise.all(
      Array.from({ length: 20 }, (_, i) => stores[i % 2]!.takeOver(scopeOf('l-1'), 'pay_l1', after, new Date(after.getTime() + 30_000))),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect((await stores[0]!.find(scopeOf('l-1')))?.lockedUntil).toEqual(new Date(after.getTime() + 30_000));
  });

  it('a release lets the next retry take over at once; the record keeps its session id', async () => {
    const now = new Date();
    await stores[0]!.claim(scopeOf('l-2'), record('pay_l2', now), now);
    await stores[1]!.release(scopeOf('l-2'), now);
    expect(await stores[1]!.takeOver(scopeOf('l-2'), 'pay_l2', now, new Date(now.getTime() + 30_000))).toBe(true);
    expect((await stores[0]!.find(scopeOf('l-2')))?.objectId).toBe('pay_l2');
  });

  // Gateways of the previous release read `state` during a rolling update (docs/adr/0070): a fresh
  // claim, and one replacing an expired record they had marked done, must read 'running' to them.
  it("writes state 'running' for the previous release's gateways, also over an expired 'done' record", async () => {
    const then = new Date();
    await stores[0]!.claim(scopeOf('l-4'), record('pay_l4_old', then), then);
    await pools[0]!.query(`UPDATE idempotency_records SET state = 'done' WHERE key = 'l-4'`);
    const later = new Date(then.getTime() + 25 * HOUR);
    await stores[1]!.claim(scopeOf('l-4'), record('pay_l4_new', later), later);
    await stores[1]!.claim(scopeOf('l-5'), record('pay_l5', later), later);
    const { rows } = await pools[0]!.query<{ key: string; state: string }>(
      `SELECT key, state FROM idempotency_records WHERE key IN ('l-4', 'l-5') ORDER BY key`,
    );
    expect(rows).toEqual([
      { key: 'l-4', state: 'running' },
      { key: 'l-5', state: 'running' },
    ]);
  });

  it('forget removes the record only while it holds the refused session id', async () => {
    const then = new Date();
    await stores[0]!.claim(scopeOf('l-3'), record('pay_l3_old', then), then);
    const later = new Date(then.getTime() + 25 * HOUR);
    await stores[0]!.claim(scopeOf('l-3'), record('pay_l3_new', later), later);
    await stores[1]!.forget(scopeOf('l-3'), 'pay_l3_old');
    expect((await stores[0]!.find(scopeOf('l-3')))?.objectId).toBe('pay_l3_new');
    await stores[1]!.forget(scopeOf('l-3'), 'pay_l3_new');
    expect(await stores[0]!.find(scopeOf('l-3'))).toBeNull();
  });
});
