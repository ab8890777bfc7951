// Risk covered: the key cache (docs/adr/0027) storing what a read saw before a change it raced, using an entry
// after a change committed before the request, or answering from memory for a key it never read.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { GATEWAY_MIGRATIONS_DIR } from '../src/index.ts';
import { KeyCache, type KeyLookup } from '../src/store/key-cache.ts';
import { MerchantStore } from '../src/store/merchant-store.ts';
import { createGatewayPrisma } from '../src/store/prisma.ts';
import type { GatewayPrisma } from '../src/store/prisma.ts';

let db: TestDatabase;
let prisma: GatewayPrisma;
let store: MerchantStore;
const logger = createLogger('key-cache-test', { level: 'silent' });
const HASH = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);

beforeAll(async () => {
  db = await createTestDatabase('gateway', GATEWAY_MIGRATIONS_DIR);
  prisma = createGatewayPrisma(db.url);
  store = new MerchantStore(prisma);
  await store.insertAccount({ id: 'acct_cache', name: 'Cache', status: 'active', payoutWallet: null, feeBps: 100, createdAt: new Date() });
  await store.insertAccount({ id: 'acct_other', name: 'Other', status: 'active', payoutWallet: null, feeBps: 100, createdAt: new Date() });
  await store.insertKey(
    { id: 'key_cache', accountId: 'acct_cache', mode: 'test', hint: 'aaaa', label: null, createdAt: new Date(), revokedAt: null },
    HASH,
  );
});
afterAll(async () => {
  await prisma.$disconnect();
  await db.drop();
});

/** The store, counting reads; `hold()` makes the next read of HASH wait (after reading) until released. */
function countingStore(): KeyLookup & { reads: number; hold(): { reached: Promise<void>; release: () => void } } {
  let held: { reached: () => void; gate: Promise<void> } | undefined;
  const counting = {
    reads: 0,
    hold() {
      let release!: () => void;
      let reached!: () => void;
      const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
      held = { reached, gate: new Promise<void>((resolve) => (release = resolve)) };
      return { reached: reachedPromise, release };
    },
    async findKeyByHash(keyHash: string) {
      counting.reads += 1;
      const found = await store.findKeyByHash(keyHash);
      if (held && keyHash === HASH) {
        const { reached, gate } = held;
        held = undefined;
        reached();
        await gate;
      }
      return found;
    },
  };
  return counting;
}

describe('the key cache', () => {
  it('answers a cached key without reading the store, and reads again after a change to the account', async () => {
    const lookup = countingStore();
    const cache = new KeyCache(lookup, db.url, logger);
    await cache.start();
    try {
      expect(cache.active).toBe(true);
      await cache.findKeyByHash(HASH);
      await cache.findKeyByHash(HASH);
      await cache.findKeyByHash(HASH);
      expect(lookup.reads).toBe(1);
      await store.updateAccount('acct_cache', { status: 'suspended' });
      expect((await cache.findKeyByHash(HASH))?.account.status).toBe('suspended');
      expect(lookup.reads).toBe(2);
      await store.updateAccount('acct_cache', { status: 'active' });
      expect((await cache.findKeyByHash(HASH))?.account.status).toBe('active');
    } finally {
      await cache.stop();
    }
  });

  it('does not store what a read saw before a change that committed while it ran', async () => {
    const lookup = countingStore();
    const cache = new KeyCache(lookup, db.url, logger);
    await cache.start();
    try {
      const { reached, release } = lookup.hold();
      const racing = cache.findKeyByHash(HASH);
      await reached; // it read "active" and has not stored it yet
      await store.updateAccount('acct_cache', { status: 'suspended' }); // the notice arrives meanwhile
      // Another cached key's use waits for a sync, and every notice is applied before a sync's answer.
      await store.insertKey(
        { id: 'key_other', accountId: 'acct_other', mode: 'test', hint: 'bbbb', label: null, createdAt: new Date(), revokedAt: null },
        OTHER,
      );
      await cache.findKeyByHash(OTHER);
      await cache.findKeyByHash(OTHER);
      release();
      expect((await racing)?.account.status).toBe('active');
      // Had the racing read been stored, this would answer "active" from memory.
      expect((await cache.findKeyByHash(HASH))?.account.status).toBe('suspended');
    } finally {
      await store.updateAccount('acct_cache', { status: 'active' });
      await cache.stop();
    }
  });

  it('offers its entry as a guess without a sync, and no guess once a change is known, past the TTL or when deaf', async () => {
    let now = 1_000_000;
    const lookup = countingStore();
    const cache = new KeyCache(lookup, db.url, logger, { ttlMs: 60_000, now: () => now });
    await cache.start();
    try {
      const PEEK = 'c'.repeat(64);
      await store.insertKey(
        { id: 'key_peek', accountId: 'acct_other', mode: 'test', hint: 'cccc', label: null, createdAt: new Date(), revokedAt: null },
        PEEK,
      );
      expect(cache.peekKeyByHash(HASH)).toBeUndefined();
      await cache.findKeyByHash(HASH);
      await cache.findKeyByHash(PEEK);
      expect(cache.peekKeyByHash(HASH)?.key.id).toBe('key_cache');
      expect(lookup.reads).toBe(2);
      await store.updateAccount('acct_cache', { payoutWallet: null }); // any change to the account drops its keys
      await cache.findKeyByHash(PEEK); // a cached key's sync: the notice is applied before its answer
      expect(cache.peekKeyByHash(HASH)).toBeUndefined();
      await cache.findKeyByHash(HASH);
      now += 60_000;
      expect(cache.peekKeyByHash(HASH)).toBeUndefined();
      now -= 60_000;
      expect(cache.peekKeyByHash(HASH)?.key.id).toBe('key_cache');
    } finally {
      await cache.stop();
    }
    expect(cache.peekKeyByHash(HASH)).toBeUndefined();
  });

  it('reads the store on every request once stopped listening', async () => {
    const lookup = countingStore();
    const cache = new KeyCache(lookup, db.url, logger);
    await cache.start();
    await cache.findKeyByHash(HASH);
    await cache.stop();
    expect(cache.active).toBe(false);
    await cache.findKeyByHash(HASH);
    await cache.findKeyByHash(HASH);
    expect(lookup.reads).toBe(3);
  });
});
