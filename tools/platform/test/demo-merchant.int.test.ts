// Risk covered: the local demo merchant's Test key stops working after a restart (the key in a shop's
// .env goes stale), is kept in plain text in the accounts database, survives a roll, is left
// unusable when the saved secret is gone or was revoked, differs (and revokes the other's) in a
// second clone on the same databases (issue 47, item 8), or is lost when a developer's existing local
// data moves from the gateway's database into accounts' (issue 48, docs/adr/0086). Real PostgreSQL, the
// accounts service over gRPC as the runner calls it, the local state database (docs/adr/0083).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  ACCOUNTS_MIGRATIONS_DIR,
  importAccountsFromGateway,
  loadAccountsConfig,
  openAccountsOperator,
  startAccountsService,
  type AccountsOperator,
  type RunningAccountsService,
} from '@hc/accounts';
import { dropDatabase, withDatabase } from '@hc/db';
import { GATEWAY_MIGRATIONS_DIR } from '@hc/gateway';
import { createLogger } from '@hc/logging';
import { createTestDatabase, testDatabaseServerUrl, testNatsPrefix, testNatsUrl, type TestDatabase } from '@hc/test-kit';
import { DEMO_KEY_LABEL, ensureDemoMerchant, keptInLocalState, type SavedKeyStore } from '../src/demo-merchant.ts';
import { databaseScope, openLocalState, type LocalState } from '../src/local-state.ts';

let database: TestDatabase;
let service: RunningAccountsService;
let operations: AccountsOperator;
let stateDir: string;
let state: LocalState;

beforeAll(async () => {
  database = await createTestDatabase('accounts', ACCOUNTS_MIGRATIONS_DIR);
  service = await startAccountsService(
    loadAccountsConfig({
      ACCOUNTS_DATABASE_URL: database.url,
      ACCOUNTS_GRPC_ADDRESS: '127.0.0.1:0',
      NATS_URL: testNatsUrl(),
      NATS_SUBJECT_PREFIX: testNatsPrefix('demo'),
      LOG_LEVEL: 'silent',
    }),
    createLogger('demo-merchant-test', { level: 'silent' }),
  );
  operations = openAccountsOperator(service.address, 15_000);
  stateDir = mkdtempSync(join(tmpdir(), 'hc-demo-merchant-'));
  state = await openLocalState(withDatabase(testDatabaseServerUrl(), `t_platform_local_${randomBytes(5).toString('hex')}`));
});
afterAll(async () => {
  operations?.close();
  await service?.stop();
  await database.drop();
  await state.close();
  await dropDatabase(state.url);
  rmSync(stateDir, { recursive: true, force: true });
});

/** Every column of every api_keys row, as stored (the secret must not be among them). */
async function storedKeys(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return JSON.stringify((await client.query('SELECT * FROM api_keys')).rows);
  } finally {
    await client.end();
  }
}

async function activeDemoKeys(accountId: string): Promise<string[]> {
  return (await operations.listKeys(accountId)).filter((k) => k.label === DEMO_KEY_LABEL && k.revokedAt === null).map((k) => k.id);
}

// One sequence: each start depends on what the previous one left (database and state file).
describe('the demo merchant of ./scripts/start', () => {
  /** What the start of the clone whose .local/ is `clone` keeps the demo key in. */
  const keptBy = (clone: string): SavedKeyStore =>
    keptInLocalState(state, databaseScope(database.url), join(stateDir, clone, 'demo-merchant.json'));

  it('keeps its Test key across starts, stored hashed, rolls it on request and replaces a lost or revoked one', async () => {
    const kept = keptBy('first-clone');
    const first = await ensureDemoMerchant(operations, kept, { roll: false });
    expect(first).toEqual({ accountId: expect.stringMatching(/^acct_/), secret: expect.stringMatching(/^sk_test_/), key: 'new' });
    expect(await storedKeys(database.url)).not.toContain(first.secret.slice('sk_test_'.length));
    expect(await operations.activeKey(first.secret)).toMatchObject({ accountId: first.accountId, mode: 'test' });

    // A restart prints the same key, which still authenticates; no second key is made.
    const again = await ensureDemoMerchant(operations, kept, { roll: false });
    expect(again).toEqual({ ...first, key: 'kept' });
    expect(await activeDemoKeys(first.accountId)).toHaveLength(1);
    // Another clone (or this one after `git clean`) on the same databases: the same key, none revoked.
    expect(await ensureDemoMerchant(operations, keptBy('second-clone'), { roll: false })).toEqual({ ...first, key: 'kept' });
    expect(await operations.activeKey(first.secret)).toMatchObject({ accountId: first.accountId });

    // Rolling: a new key, the old one revoked, the new one saved for the next start.
    const rolled = await ensureDemoMerchant(operations, kept, { roll: true });
    expect(rolled).toMatchObject({ accountId: first.accountId, key: 'rolled' });
    expect(rolled.secret).not.toBe(first.secret);
    expect(await operations.activeKey(first.secret)).toBeNull();
    expect(await kept.read()).toEqual({ account: first.accountId, secret: rolled.secret });
    expect(await ensureDemoMerchant(operations, keptBy('second-clone'), { roll: false })).toEqual({ ...rolled, key: 'kept' });

    // The key revoked by an operator: the next start makes a new one rather than print a dead key.
    const [onlyKey] = await activeDemoKeys(first.accountId);
    await operations.revokeKey(String(onlyKey));
    const afterRevoke = await ensureDemoMerchant(operations, kept, { roll: false });
    expect(afterRevoke.key).toBe('new');
    expect(await operations.activeKey(afterRevoke.secret)).not.toBeNull();

    // The kept state lost (e.g. the local state database dropped): a new key, and the one nobody
    // can show any more is revoked.
    await state.forget([databaseScope(database.url)]);
    const afterLoss = await ensureDemoMerchant(operations, kept, { roll: false });
    expect(afterLoss.key).toBe('new');
    expect(await operations.activeKey(afterRevoke.secret)).toBeNull();
    expect(await activeDemoKeys(first.accountId)).toHaveLength(1);
    expect((await operations.listAccounts()).filter((a) => a.name === 'Demo Shop')).toHaveLength(1);
  });

  it('takes over the key a clone kept in its .local/ before ADR 0083, for every clone after it', async () => {
    const [demo] = (await operations.listAccounts()).filter((a) => a.name === 'Demo Shop');
    const created = await operations.createKey(String(demo?.id), 'test', DEMO_KEY_LABEL);
    await state.forget([databaseScope(database.url)]);
    mkdirSync(join(stateDir, 'old-clone'), { recursive: true });
    writeFileSync(join(stateDir, 'old-clone', 'demo-merchant.json'), JSON.stringify({ account: demo?.id, secret: created.secret }));
    expect(await ensureDemoMerchant(operations, keptBy('old-clone'), { roll: false })).toMatchObject({
      secret: created.secret,
      key: 'kept',
    });
    expect(await ensureDemoMerchant(operations, keptBy('new-clone'), { roll: false })).toMatchObject({
      secret: created.secret,
      key: 'kept',
    });
  });

  it('keeps the demo key of local data made before the accounts context, once the runner moved it', async () => {
    // The gateway's database as the previous release left it, with the demo account and its key.
    const gateway = await createTestDatabase('gateway', GATEWAY_MIGRATIONS_DIR);
    const secret = `sk_test_${'Ab3'.repeat(10)}zz`;
    const client = new pg.Client({ connectionString: gateway.url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO merchant_accounts (id, name, status, payout_wallet, fee_bps, created_at)
         VALUES ('acct_olddemo', 'Demo Shop (old)', 'active', NULL, 175, now())`,
      );
      await client.query(
        `INSERT INTO api_keys (id, account_id, mode, key_hash, hint, label, created_at, revoked_at) VALUES
           ('key_olddemo', 'acct_olddemo', 'test', $1, 'sk_test_…3zz', $2, now(), NULL),
           ('key_oldgone', 'acct_olddemo', 'live', $3, 'sk_live_…0000', NULL, now(), now())`,
        [createHash('sha256').update(secret).digest('hex'), DEMO_KEY_LABEL, 'e'.repeat(64)],
      );
    } finally {
      await client.end();
    }
    const kept = keptInLocalState(state, databaseScope(gateway.url), join(stateDir, 'moved', 'demo-merchant.json'));
    await kept.save({ account: 'acct_olddemo', secret });
    try {
      expect(await importAccountsFromGateway(database.url, gateway.url)).toEqual({ accounts: 1, keys: 2, revocations: 0 });
      // Idempotent: the next start moves nothing again.
      expect(await importAccountsFromGateway(database.url, gateway.url)).toEqual({ accounts: 0, keys: 0, revocations: 0 });
      expect(await operations.getAccount('acct_olddemo')).toMatchObject({ status: 'active', feeBps: 175, payoutWallet: null });
      expect(await operations.activeKey(secret)).toMatchObject({ id: 'key_olddemo', accountId: 'acct_olddemo', mode: 'test' });
      expect((await operations.listKeys('acct_olddemo')).find((k) => k.id === 'key_oldgone')?.revokedAt).not.toBeNull();
    } finally {
      await gateway.drop();
    }
  });
});
