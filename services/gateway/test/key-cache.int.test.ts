// Risk covered: the key cache (docs/adr/0085, 0108) storing what a read saw before a change it raced, using an
// entry after a change answered before the request, answering from memory for a key it never read, using
// cached keys while the accounts context does not answer its renewals, or past its lease while a change
// that waited for it is answered; and a change waiting for a cache that is gone.
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createLogger } from '@hc/logging';
import { ACCOUNTS_MIGRATIONS_DIR, hashApiKey, loadAccountsConfig, startAccountsService, type RunningAccountsService } from '@hc/accounts';
import { createTestDatabase, eventually, testNatsPrefix, testNatsUrl, type TestDatabase } from '@hc/test-kit';
import { KeyCache } from '../src/adapters/key-cache.ts';
import { keyDirectoryClient, type KeyDirectoryClient, type LeaseCall } from '../src/adapters/key-directory-client.ts';

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
  // The channel connected before the tests: a new channel's first call, on a loaded CI machine, once took
  // longer than a renewal may (the lease less 50 ms), and the first cache started without a lease.
  await directory.findKeyByHash(HASH);
});

/**
 * A cache started and holding its lease. 3 s (accounts' longest) rather than the default 2 s, and waited
 * for rather than assumed: in the whole suite on two cores a renewal can take over a second, and these
 * tests are about what a cache under a lease uses, not how fast accounts answers (the tests of the
 * lease's own timing below set theirs).
 */
async function leasedCache(lookup: KeyDirectoryClient, options: ConstructorParameters<typeof KeyCache>[2] = {}): Promise<KeyCache> {
  const cache = new KeyCache(lookup, logger, { leaseMs: 3_000, ...options });
  await cache.start();
  await eventually(
    async () => cache.active,
    (active) => active,
    10_000,
  );
  return cache;
}
/** Leases in accounts that have not run out, whichever cache holds them. */
async function unexpiredLeases(): Promise<number> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM key_cache_leases WHERE expires_at > clock_timestamp()',
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

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
    holdLease: (call: LeaseCall) => directory.holdLease(call),
    close: () => undefined,
  };
  return counting;
}

describe('the key cache', () => {
  it('answers a cached key without asking accounts, and asks again after a change to the account', async () => {
    const lookup = countingDirectory();
    const cache = await leasedCache(lookup);
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
      await cache.stop();
    }
  });

  it('does not store what a read saw before a change that was answered while it ran', async () => {
    const lookup = countingDirectory();
    const cache = await leasedCache(lookup);
    try {
      const { reached, release } = lookup.hold();
      const racing = cache.findKeyByHash(HASH);
      await reached; // it read "active" and has not stored it yet
      await accounts.operations.suspend(accountId); // answered meanwhile
      // The cache applied the suspension before it was answered (its lease); the racing read must not undo that.
      await cache.findKeyByHash(OTHER);
      await cache.findKeyByHash(OTHER);
      release();
      expect((await racing)?.account.status).toBe('active');
      // Had the racing read been stored, this would answer "active" from memory.
      expect((await cache.findKeyByHash(HASH))?.account.status).toBe('suspended');
    } finally {
      await accounts.operations.reactivate(accountId);
      await cache.stop();
    }
  });

  it('holds an entry until a change names it or it is past the TTL', async () => {
    let now = 1_000_000;
    const lookup = countingDirectory();
    const cache = await leasedCache(lookup, { ttlMs: 60_000, now: () => now });
    try {
      expect(cache.peekKeyByHash(HASH)).toBeUndefined();
      await cache.findKeyByHash(HASH);
      await cache.findKeyByHash(OTHER);
      expect(cache.peekKeyByHash(HASH)?.key.id).toBe(keyId);
      expect(lookup.reads).toBe(2);
      await accounts.operations.setPayoutWallet(accountId, null); // any change to the account drops its keys
      expect(cache.peekKeyByHash(HASH)).toBeUndefined();
      await cache.findKeyByHash(HASH);
      now += 60_000;
      expect(cache.peekKeyByHash(HASH)).toBeUndefined();
      now -= 60_000;
      expect(cache.peekKeyByHash(HASH)?.key.id).toBe(keyId);
    } finally {
      await cache.stop();
    }
    expect(cache.peekKeyByHash(HASH)).toBeUndefined();
  });

  it('uses nothing cached while accounts does not answer, and caches again, missing no change, once it does', async () => {
    const lookup = countingDirectory();
    const cache = await leasedCache(lookup);
    try {
      await cache.findKeyByHash(HASH);
      await cache.findKeyByHash(OTHER);
      const address = accounts.address;
      await accounts.stop();
      // The first renewal that fails ends the lease (no change can be answered meanwhile anyway).
      await eventually(
        async () => cache.active,
        (active) => !active,
        10_000,
      );
      await expect(cache.findKeyByHash(OTHER)).rejects.toMatchObject({ code: 'service_unavailable' });
      expect(cache.peekKeyByHash(HASH)).toBeUndefined();
      // Revoked by hand while no renewal could run: the trigger records it all the same.
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      await client.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [keyId]);
      await client.end();
      accounts = await startAccountsService(config(address), logger);
      // The client reconnects after its back-off: until a renewal answers, lookups fail or ask accounts directly.
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
      await cache.stop();
    }
  });
});

describe("the key cache's lease (docs/adr/0108)", () => {
  it('has applied a change by the time accounts answers it, with no request asking', async () => {
    const lookup = countingDirectory();
    const cache = await leasedCache(lookup);
    try {
      await cache.findKeyByHash(HASH);
      expect(cache.peekKeyByHash(HASH)?.account.status).toBe('active');
      await accounts.operations.suspend(accountId);
      // Nothing was asked of the cache since: its renewals applied the change before accounts answered it.
      expect(cache.peekKeyByHash(HASH)).toBeUndefined();
      expect((await cache.findKeyByHash(HASH))?.account.status).toBe('suspended');
      expect(lookup.reads).toBe(2);
    } finally {
      await accounts.operations.reactivate(accountId);
      await cache.stop();
    }
  });

  it('keeps a change waiting for a cache that stopped renewing until its lease has run out, when the cache no longer uses it', async () => {
    let renewals = 0;
    // Renews once, then never hears back (a gateway frozen or cut off from accounts).
    const frozen: KeyDirectoryClient = {
      findKeyByHash: (keyHash) => directory.findKeyByHash(keyHash),
      holdLease: (call) => (++renewals === 1 ? directory.holdLease(call) : new Promise<never>(() => undefined)),
      close: () => undefined,
    };
    const cache = new KeyCache(frozen, logger, { leaseMs: 1_500 });
    await cache.start();
    try {
      await cache.findKeyByHash(HASH);
      expect(cache.active).toBe(true);
      const started = performance.now();
      await accounts.operations.setPayoutWallet(accountId, null);
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(1_000);
      expect(waited).toBeLessThan(6_000);
      // When accounts stopped waiting, the cache had already stopped using what it holds.
      expect(cache.active).toBe(false);
      expect(cache.peekKeyByHash(HASH)).toBeUndefined();
    } finally {
      await cache.stop();
    }
  });

  it('counts its lease from when it asked, not from when the answer came', async () => {
    // Every answer arrives 1.2 s after accounts recorded the lease (a slow network back).
    const slow: KeyDirectoryClient = {
      findKeyByHash: (keyHash) => directory.findKeyByHash(keyHash),
      holdLease: async (call) => {
        const answer = await directory.holdLease(call);
        await new Promise((resolve) => setTimeout(resolve, 1_200));
        return answer;
      },
      close: () => undefined,
    };
    const cache = new KeyCache(slow, logger, { leaseMs: 1_000 });
    await cache.start();
    try {
      // Accounts' record of this lease ran out 0.2 s ago: the cache must not use it either.
      expect(cache.active).toBe(false);
    } finally {
      await cache.stop();
    }
  });

  it('gives its lease back when it stops, so no change waits for it', async () => {
    const cache = new KeyCache(directory, logger, { leaseMs: 5_000 });
    await cache.start();
    await cache.findKeyByHash(HASH);
    await cache.stop();
    const started = performance.now();
    await accounts.operations.setPayoutWallet(accountId, null);
    // Well under the 5 s lease given back (room for a loaded machine).
    expect(performance.now() - started).toBeLessThan(4_000);
  });

  it('rests when no lookup came for a while: gives its lease back, and holds one again at the next lookup (docs/adr/0116)', async () => {
    const lookup = countingDirectory();
    const cache = await leasedCache(lookup, { idleAfterMs: 300 });
    try {
      await cache.findKeyByHash(HASH);
      expect(
        await eventually(
          async () => cache.active,
          (active) => !active,
          10_000,
        ),
      ).toBe(false);
      // Given back, not left to run out (3 s): no lease in accounts for a change to wait for.
      expect(await eventually(unexpiredLeases, (leases) => leases === 0, 10_000)).toBe(0);
      await accounts.operations.suspend(accountId);
      // The lookup that wakes it asks accounts (nothing cached is used without a lease) and sees the change.
      const readsBefore = lookup.reads;
      expect((await cache.findKeyByHash(HASH))?.account.status).toBe('suspended');
      expect(lookup.reads).toBe(readsBefore + 1);
      // Leased again (the lookups keep it from resting), it answers from memory.
      await eventually(
        async () => (await cache.findKeyByHash(HASH), cache.active),
        (active) => active,
        10_000,
      );
      await cache.findKeyByHash(HASH);
      const reads = lookup.reads;
      expect((await cache.findKeyByHash(HASH))?.account.status).toBe('suspended');
      expect(lookup.reads).toBe(reads);
    } finally {
      await accounts.operations.reactivate(accountId);
      await cache.stop();
    }
  });

  it('is granted at most 3 s, and refuses a request without a cache id', async () => {
    const call = { cacheId: 'lease-cap-test', applied: undefined, timeoutMs: 5_000 };
    expect((await directory.holdLease({ ...call, leaseMs: 60_000, renewal: 1n })).leaseMs).toBe(3_000);
    await directory.holdLease({ ...call, leaseMs: 0, renewal: 2n });
    await expect(directory.holdLease({ ...call, cacheId: '', leaseMs: 1_000, renewal: 1n })).rejects.toMatchObject({
      code: 'invalid_request',
      field: 'cache_id',
    });
  });
});
