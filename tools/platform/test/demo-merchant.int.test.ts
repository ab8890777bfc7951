// Risk covered: the local demo merchant's Test key stops working after a restart (the key in a shop's
// .env goes stale), is kept in plain text in the gateway's database, survives a roll, is left
// unusable when the saved secret is gone or was revoked, or differs (and revokes the other's) in a
// second clone on the same databases (issue 47, item 8). Real PostgreSQL, the gateway's own
// operations, the local state database (docs/adr/0083).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { dropDatabase, withDatabase } from '@hc/db';
import { createTestDatabase, testDatabaseServerUrl, type TestDatabase } from '@hc/test-kit';
import { GATEWAY_MIGRATIONS_DIR, openMerchantAccounts, type MerchantAccounts, type MerchantOperations } from '@hc/gateway';
import { createGatewayPrisma } from '@hc/gateway/testing';
import { DEMO_KEY_LABEL, ensureDemoMerchant, keptInLocalState, type SavedKeyStore } from '../src/demo-merchant.ts';
import { databaseScope, openLocalState, type LocalState } from '../src/local-state.ts';

let database: TestDatabase;
let accounts: MerchantAccounts;
/** Reads the stored rows as they are (the secret must not be among them). */
let prisma: ReturnType<typeof createGatewayPrisma>;
let operations: MerchantOperations;
let stateDir: string;
let state: LocalState;

beforeAll(async () => {
  database = await createTestDatabase('gateway', GATEWAY_MIGRATIONS_DIR);
  accounts = openMerchantAccounts(database.url);
  operations = accounts.operations;
  prisma = createGatewayPrisma(database.url);
  stateDir = mkdtempSync(join(tmpdir(), 'hc-demo-merchant-'));
  state = await openLocalState(withDatabase(testDatabaseServerUrl(), `t_platform_local_${randomBytes(5).toString('hex')}`));
});
afterAll(async () => {
  await accounts.close();
  await prisma.$disconnect();
  await database.drop();
  await state.close();
  await dropDatabase(state.url);
  rmSync(stateDir, { recursive: true, force: true });
});

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
    expect(JSON.stringify(await prisma.apiKey.findMany())).not.toContain(first.secret.slice('sk_test_'.length));
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
});
