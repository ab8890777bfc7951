// Risk covered: the one-statement claim (docs/performance.md) letting two requests own one key — on a
// fresh key or on an expired record being replaced, across two pools like two gateway processes — or
// replacing a live record, or never giving an expired key a new session.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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
const hashOf = (sessionId: string): string => createHash('sha256').update(sessionId).digest('hex');
const record = (sessionId: string, now: Date): IdempotencyRecord => ({
  requestHash: hashOf(sessionId),
  sessionId,
  state: 'running',
  lockedUntil: new Date(now.getTime() + 30_000),
  expiresAt: new Date(now.getTime() + 24 * HOUR),
});

describe('IdempotencyStore.claim', () => {
  it('claims a new key once; a live record stays as it was', async () => {
    const scope = { accountId: 'acct_a', livemode: false, key: 'k1' };
    const now = new Date();
    expect(await stores[0]!.claim(scope, record('pay_first', now), now)).toBe(true);
    expect(await stores[1]!.claim(scope, record('pay_second', now), now)).toBe(false);
    expect(await stores[0]!.find(scope)).toMatchObject({ sessionId: 'pay_first', requestHash: hashOf('pay_first'), state: 'running' });
    // The same key in the other mode or another account is another key.
    expect(await stores[0]!.claim({ ...scope, livemode: true }, record('pay_live', now), now)).toBe(true);
    expect(await stores[0]!.claim({ ...scope, accountId: 'acct_b' }, record('pay_b', now), now)).toBe(true);
  });

  it('replaces an expired record: an old key makes a new session', async () => {
    const scope = { accountId: 'acct_a', livemode: false, key: 'k2' };
    const then = new Date();
    expect(await stores[0]!.claim(scope, record('pay_old', then), then)).toBe(true);
    await stores[0]!.complete(scope, 'pay_old');
    const later = new Date(then.getTime() + 25 * HOUR);
    expect(await stores[1]!.claim(scope, record('pay_new', later), later)).toBe(true);
    expect(await stores[0]!.find(scope)).toMatchObject({
      sessionId: 'pay_new',
      state: 'running',
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
    expect((await stores[0]!.find(scope))?.sessionId).toBe(`pay_${winner}`);
  });
});
