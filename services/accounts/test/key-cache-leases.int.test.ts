// Risk covered: the two orderings the key-cache lease rests on (docs/adr/0108). A renewal that read the
// change feed before it recorded its lease could miss a change committed in between and still be counted
// as having applied it; a renewal that arrives after a later call of the same cache (one it gave up on,
// or one that landed after the cache gave its lease back) could revive or rewind the lease.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { ACCOUNTS_MIGRATIONS_DIR } from '../src/migrations.ts';
import { ChangeFeed } from '../src/store/change-feed.ts';
import { KeyCacheLeases } from '../src/store/key-cache-leases.ts';
import { MerchantStore, NO_KEY_CACHES } from '../src/store/merchant-store.ts';
import { createAccountsPrisma, type AccountsPrisma } from '../src/store/prisma.ts';
import { holdLease, keyCachesCaughtUp, type KeyDirectoryDependencies } from '../src/use-cases/key-directory.ts';

let db: TestDatabase;
let prisma: AccountsPrisma;
let pool: pg.Pool;
let changes: ChangeFeed;
let leases: KeyCacheLeases;
const ACCOUNT = 'acct_leases';

/** A change to the account as SQL by hand would make it: the trigger records it, nothing waits. */
const touchAccount = () => pool.query('UPDATE merchant_accounts SET name = name WHERE id = $1', [ACCOUNT]);

beforeAll(async () => {
  db = await createTestDatabase('accounts', ACCOUNTS_MIGRATIONS_DIR);
  prisma = createAccountsPrisma(db.url);
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  changes = new ChangeFeed(pool);
  leases = new KeyCacheLeases(pool);
  await new MerchantStore(prisma, NO_KEY_CACHES).insertAccount({
    id: ACCOUNT,
    name: 'Leases',
    status: 'active',
    payoutWallet: null,
    feeBps: 150,
    createdAt: new Date(),
  });
});
afterAll(async () => {
  await pool?.end();
  await prisma?.$disconnect();
  await db?.drop();
});

function deps(overrides: Partial<KeyDirectoryDependencies> = {}): KeyDirectoryDependencies {
  return { store: { findKeyByHash: async () => null }, changes, leases, ...overrides };
}

describe('a key-cache renewal', () => {
  it('answers a change committed right after its lease was recorded (the lease first, then the feed)', async () => {
    const start = await holdLease(deps(), { cacheId: 'ordering', applied: undefined, leaseMs: 1_000, renewal: 1n });
    const recordedThenChanged = deps({
      leases: {
        behind: (position) => leases.behind(position),
        hold: async (...args) => {
          const recorded = await leases.hold(...args);
          await touchAccount(); // commits after the lease row, before the feed is read
          return recorded;
        },
      },
    });
    const answer = await holdLease(recordedThenChanged, { cacheId: 'ordering', applied: start.position, leaseMs: 1_000, renewal: 2n });
    expect(answer.changes.map((change) => change.accountId)).toEqual([ACCOUNT]);
    expect(answer.position).toBe(await changes.position());
    await holdLease(deps(), { cacheId: 'ordering', applied: answer.position, leaseMs: 0, renewal: 3n });
  });

  it('that arrives after a later call of its cache changes nothing and is granted no lease', async () => {
    const first = await holdLease(deps(), { cacheId: 'late', applied: undefined, leaseMs: 0, renewal: 5n });
    await touchAccount();
    const behind = await changes.position();
    expect(behind).toBeGreaterThan(first.position);
    // Renewal 4 lands after 5 gave the lease back: it must not hold the lease again.
    const late = await holdLease(deps(), { cacheId: 'late', applied: first.position, leaseMs: 3_000, renewal: 4n });
    expect(late).toMatchObject({ changes: [], leaseMs: 0 });
    expect(await leases.behind(behind)).toBe(0);
    const started = performance.now();
    await keyCachesCaughtUp({ changes, leases }).caughtUp();
    // Well under the 3 s lease it must not wait for (room for a loaded machine).
    expect(performance.now() - started).toBeLessThan(2_500);
  });

  it('holds a change back while a lease behind it runs, and lets it go once the cache reports it applied', async () => {
    const held = await holdLease(deps(), { cacheId: 'holder', applied: undefined, leaseMs: 3_000, renewal: 1n });
    await touchAccount();
    let answered = false;
    const waiting = keyCachesCaughtUp({ changes, leases })
      .caughtUp()
      .then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    const renewal = await holdLease(deps(), { cacheId: 'holder', applied: held.position, leaseMs: 3_000, renewal: 2n });
    await holdLease(deps(), { cacheId: 'holder', applied: renewal.position, leaseMs: 3_000, renewal: 3n });
    await waiting;
    expect(answered).toBe(true);
    await holdLease(deps(), { cacheId: 'holder', applied: renewal.position, leaseMs: 0, renewal: 4n });
  });
});
