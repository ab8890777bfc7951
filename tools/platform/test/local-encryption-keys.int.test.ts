// Risk covered: the local platform starting without a key for secrets at rest, making a new key at
// every start or in every clone (so what an earlier start or another clone sealed no longer opens:
// issue 47, item 8), losing the key a clone kept in its .local/ before ADR 0083, two clones started at
// once each making their own key, or replacing a damaged keyring (losing every sealed secret silently).
// Real PostgreSQL: the local state database of a test of its own.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { dropDatabase, withDatabase } from '@hc/db';
import { parseEncryptionKeys } from '@hc/secrets';
import { testDatabaseServerUrl } from '@hc/test-kit';
import { KEYRING_NAME, localEncryptionKeys } from '../src/local-encryption-keys.ts';
import { CLUSTER_SCOPE, databaseScope, openLocalState, stateDatabaseUrl, type LocalState } from '../src/local-state.ts';

const clones = mkdtempSync(join(tmpdir(), 'hc-local-keys-'));
const stateUrls: string[] = [];
const opened: LocalState[] = [];

/** A local state database of its own, as on a fresh cluster. */
async function freshState(): Promise<LocalState> {
  const url = withDatabase(testDatabaseServerUrl(), `t_platform_local_${randomBytes(5).toString('hex')}`);
  stateUrls.push(url);
  const state = await openLocalState(url);
  opened.push(state);
  return state;
}

afterAll(async () => {
  await Promise.all(opened.map((state) => state.close()));
  await Promise.all(stateUrls.map((url) => dropDatabase(url)));
  rmSync(clones, { recursive: true, force: true });
});

const KEY_A = `local-a:${Buffer.alloc(32, 1).toString('base64')}`;
const KEY_B = `local-b:${Buffer.alloc(32, 2).toString('base64')}`;

describe('the encryption key of ./scripts/start', () => {
  it('is made once per cluster and kept beside the data: a second clone or a git clean finds the same key', async () => {
    const state = await freshState();
    const first = await localEncryptionKeys(state, join(clones, 'clone-1', 'secrets-encryption-keys'), {});
    expect(first.origin).toBe('new');
    expect(parseEncryptionKeys(first.keys).current.id).toMatch(/^local-[0-9a-z]+$/);
    expect(await state.get(CLUSTER_SCOPE, KEYRING_NAME)).toBe(first.keys);
    // Another clone (its .local/ empty), or the same one after `git clean -fdx`: the same key.
    expect(await localEncryptionKeys(state, join(clones, 'clone-2', 'secrets-encryption-keys'), {})).toEqual({
      keys: first.keys,
      origin: 'kept',
    });
  });

  it("takes the key a clone kept in its .local/ before ADR 0083, and adds a second clone's as an older key", async () => {
    const state = await freshState();
    writeFileSync(join(clones, 'a-keys'), `${KEY_A}\n`);
    writeFileSync(join(clones, 'b-keys'), `${KEY_B}\n`);
    expect(await localEncryptionKeys(state, join(clones, 'a-keys'), {})).toEqual({ keys: KEY_A, origin: 'imported' });
    // The second old clone's key opens what it sealed; the first stays the one that seals.
    expect(await localEncryptionKeys(state, join(clones, 'b-keys'), {})).toEqual({ keys: `${KEY_A},${KEY_B}`, origin: 'imported' });
    expect(await localEncryptionKeys(state, join(clones, 'b-keys'), {})).toEqual({ keys: `${KEY_A},${KEY_B}`, origin: 'kept' });
    expect(await localEncryptionKeys(state, join(clones, 'none'), {})).toEqual({ keys: `${KEY_A},${KEY_B}`, origin: 'kept' });
  });

  it('gives two clones started at once one key', async () => {
    const state = await freshState();
    const other = await openLocalState(state.url);
    opened.push(other);
    const [one, two] = await Promise.all([
      localEncryptionKeys(state, join(clones, 'none'), {}),
      localEncryptionKeys(other, join(clones, 'none'), {}),
    ]);
    expect(one.keys).toBe(two.keys);
    expect([one.origin, two.origin].sort()).toEqual(['kept', 'new']);
  });

  it('takes SECRETS_ENCRYPTION_KEYS from the environment when set, and keeps nothing', async () => {
    const state = await freshState();
    const keys = `mine:${Buffer.alloc(32, 5).toString('base64')}`;
    expect(await localEncryptionKeys(state, join(clones, 'none'), { SECRETS_ENCRYPTION_KEYS: keys })).toEqual({
      keys,
      origin: 'environment',
    });
    expect(await state.get(CLUSTER_SCOPE, KEYRING_NAME)).toBeUndefined();
  });

  it('refuses a damaged keyring or clone file rather than replacing it', async () => {
    const state = await freshState();
    await state.put(CLUSTER_SCOPE, KEYRING_NAME, 'local-1:not-a-key');
    await expect(localEncryptionKeys(state, join(clones, 'none'), {})).rejects.toThrow(/secrets-encryption-keys\): .*32 random bytes/);
    expect(await state.get(CLUSTER_SCOPE, KEYRING_NAME)).toBe('local-1:not-a-key');
    writeFileSync(join(clones, 'damaged'), 'local-2:not-a-key\n');
    await expect(localEncryptionKeys(await freshState(), join(clones, 'damaged'), {})).rejects.toThrow(/damaged: .*32 random bytes/);
  });

  it('is kept in hc_platform_local beside the gateway database unless PLATFORM_STATE_DATABASE_URL says where', () => {
    const gateway = 'postgresql://postgres:pw@db.local:5433/mine_gateway';
    expect(stateDatabaseUrl({}, gateway)).toBe('postgresql://postgres:pw@db.local:5433/hc_platform_local');
    expect(stateDatabaseUrl({ PLATFORM_STATE_DATABASE_URL: 'postgresql://x@h/s' }, gateway)).toBe('postgresql://x@h/s');
    expect(databaseScope(gateway)).toBe('db.local:5433/mine_gateway'); // no credentials in a scope
    expect(databaseScope('postgresql://postgres@127.0.0.1/hc_gateway')).toBe('127.0.0.1:5432/hc_gateway');
  });
});
