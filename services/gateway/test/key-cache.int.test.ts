// Risk covered: the key cache (docs/adr/0085) storing what a read saw before a change it raced, using an entry
// after a change answered before the request, answering from memory for a key it never read, or using
// cached keys while the accounts context does not answer its syncs.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createLogger } from '@hc/logging';
import { ACCOUNTS_MIGRATIONS_DIR, hashApiKey, loadAccountsConfig, startAccountsService, type RunningAccountsService } from '@hc/accounts';
import { createTestDatabase, eventually, testNatsPrefix, testNatsUrl, type TestDatabase } from '@hc/test-kit';
import { KeyCache } from '../src/adapters/key-cache.ts';
import { keyDirectoryClient, type KeyDirectoryClient } from '../src/adapters/key-directory-client.ts';

let db: TestDatabase;
let accounts: RunningAccountsService;
let directory: KeyDirectoryClient;
const logger = createLogger('key-cache-test', { level: 'silent' });
const config = (address: string) =>
  loadAccountsConfig({
    ACCOUNTS_DATABASE_URL: db.url,
    ACCOUNTS_GRPC_ADDRESS: address,
    NATS_URL: testNatsUrl(),
    NATS_SUBJECT_PREFIX: prefix,
    LOG_LEVEL: 'silent',
  });
const prefix = testNatsPrefix('keycache');
let accountId: string;
let otherAccountId: string;
let HASH: string;
let OTHER: string;
let keyId: string;

beforeAll(async () => {
  db = await createTestDatabase('accounts', ACCOUNTS_MIGRATIONS_DIR);
  accounts = await startAccountsService(config('127.0.0.1:0'), logger);
  directory = keyDirectoryClient(accounts.address, 10_000);
  const ops = accounts.operations;
  accountId = (await ops.createAccount({ name: 'Cache' })).id;
  otherAccountId = (await ops.createAccount({ name: 'Other' })).id;
  const made = await ops.createKey(accountId, 'test');
  keyId = made.key.id;
  HASH = hashApiKey(made.secret);
  OTHER = hashApiKey((await ops.createKey(otherAccountId, 'test')).secret);
});
afterAll(async () => {
  directory?.close();
  await accounts?.stop();
  await db?.drop();
});

/** The directory, counting key reads; `hold()` makes the next read of HASH wait (after reading) until released. */
function countingDirectory(): KeyDirectoryClient & { reads: number; hold(): { reached: Promise<void>; release: () => void } } {
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
      const found = await directory.findKeyByHash(keyHash);
      if (held && keyHash === HASH) {
        const { reached, gate } = held;
        held = undefined;
        reached();
        await gate;
      }
      return found;
    },
    changes: (after: bigint | undefined) => directory.changes(after),
    close: () => undefined,
  };
  return counting;
}

describe('the key cache', () => {
  it('answers a cached key without asking accounts, and asks again after a change to the account', async () => {
    const lookup = countingDirectory();
    const cache = new KeyCache(lookup, logger);
    await cache.start();
    try {
      expect(cache.active).toBe(true);
      await cache.findKeyByHash(HASH);
      await cache.findKeyByHash(HASH);
      await cache.findKeyByHash(HASH);
      expect(lookup.reads).toBe(1);
      await accounts.operations.suspend(accountId);
      expect((await cache.findKeyByHash(HASH))?.account.status).toBe('suspended');
      expect(lookup.reads).toBe(2);
      await accounts.operations.reactivate(accountId);
      expect((await cache.findKeyByHash(HASH))?.account.status).toBe('active');
    } finally {
      cache.stop();
    }
  });

  it('does not store what a read saw before a change that was answered while it ran', async () => {
    const lookup = countingDirectory();
    const cache = new KeyCache(lookup, logger);
    await cache.start();
    try {
      const { reached, release } = lookup.hold();
      const racing = cache.findKeyByHash(HASH);
      await reached; // it read "active" and has not stored it yet
      await accounts.operations.suspend(accountId); // answered meanwhile
      // Another cached key's use waits for a sync, which applies every change answered before it.
      await cache.findKeyByHash(OTHER);
      await cache.findKeyByHash(OTHER);
      release();
      expect((await racing)?.account.status).toBe('active');
      // Had the racing read been stored, this would answer "active" from memory.
      expect((await cache.findKeyByHash(HASH))?.account.status).toBe('suspended');
    } finally {
      await accounts.operations.reactivate(accountId);
      cache.stop();
    }
  });

  it('offers its entry as a guess without a sync, and no guess once a change is known or past the TTL', async () => {
    let now = 1_000_000;
    const lookup = countingDirectory();
    const cache = new KeyCache(lookup, logger, { ttlMs: 60_000, now: () => now });
    await cache.start();
    try {
      expect(cache.peekKeyByHash(HASH)).toBeUndefined();
      await cache.findKeyByHash(HASH);
      await cache.findKeyByHash(OTHER);
      expect(cache.peekKeyByHash(HASH)?.key.id).toBe(keyId);
      expect(lookup.reads).toBe(2);
      await accounts.operations.setPayoutWallet(accountId, null); // any change to the account drops its keys
      await cache.findKeyByHash(OTHER); // a cached key's sync applies the change
      expect(cache.peekKeyByHash(HASH)).toBeUndefined();
      await cache.findKeyByHash(HASH);
      now += 60_000;
      expect(cache.peekKeyByHash(HASH)).toBeUndefined();
      now -= 60_000;
      expect(cache.peekKeyByHash(HASH)?.key.id).toBe(keyId);
    } finally {
      cache.stop();
    }
    expect(cache.peekKeyByHash(HASH)).toBeUndefined();
  });

  it('uses nothing cached while accounts does not answer, and caches again, missing no change, once it does', async () => {
    const lookup = countingDirectory();
    const cache = new KeyCache(lookup, logger);
    await cache.start();
    try {
      await cache.findKeyByHash(HASH);
      await cache.findKeyByHash(OTHER);
      const address = accounts.address;
      await accounts.stop();
      await expect(cache.findKeyByHash(OTHER)).rejects.toMatchObject({ code: 'service_unavailable' });
      expect(cache.active).toBe(false);
      expect(cache.peekKeyByHash(HASH)).toBeUndefined();
      // Revoked by hand while no sync could run: the trigger records it all the same.
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      await client.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [keyId]);
      await client.end();
      accounts = await startAccountsService(config(address), logger);
      // The client reconnects after its back-off: until a sync answers, lookups fail or ask accounts directly.
      const answered = await eventually(
        async () => ({ found: await cache.findKeyByHash(HASH).catch(() => undefined), active: cache.active }),
        ({ found, active }) => found !== undefined && active,
        30_000,
      );
      expect(answered.found?.key.revokedAt).not.toBeNull();
      const reads = lookup.reads;
      await cache.findKeyByHash(OTHER);
      expect(lookup.reads).toBe(reads);
    } finally {
      cache.stop();
    }
  });
});
