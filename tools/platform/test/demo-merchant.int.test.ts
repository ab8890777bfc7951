// Risk covered: the local demo merchant's Test key stops working after a restart (the key in a shop's
// .env goes stale), is kept in plain text in the database, survives a roll, or is left unusable
// when the saved secret is gone or was revoked. Real PostgreSQL, the gateway's own operations.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { GATEWAY_MIGRATIONS_DIR, openMerchantAccounts, type MerchantAccounts, type MerchantOperations } from '@hc/gateway';
import { createGatewayPrisma } from '@hc/gateway/testing';
import { DEMO_KEY_LABEL, ensureDemoMerchant } from '../src/demo-merchant.ts';

let database: TestDatabase;
let accounts: MerchantAccounts;
/** Reads the stored rows as they are (the secret must not be among them). */
let prisma: ReturnType<typeof createGatewayPrisma>;
let operations: MerchantOperations;
let stateDir: string;

beforeAll(async () => {
  database = await createTestDatabase('gateway', GATEWAY_MIGRATIONS_DIR);
  accounts = openMerchantAccounts(database.url);
  operations = accounts.operations;
  prisma = createGatewayPrisma(database.url);
  stateDir = mkdtempSync(join(tmpdir(), 'hc-demo-merchant-'));
});
afterAll(async () => {
  await accounts.close();
  await prisma.$disconnect();
  await database.drop();
  rmSync(stateDir, { recursive: true, force: true });
});

async function activeDemoKeys(accountId: string): Promise<string[]> {
  return (await operations.listKeys(accountId)).filter((k) => k.label === DEMO_KEY_LABEL && k.revokedAt === null).map((k) => k.id);
}

// One sequence: each start depends on what the previous one left (database and state file).
describe('the demo merchant of ./scripts/start', () => {
  const stateFile = () => join(stateDir, 'demo-merchant.json');

  it('keeps its Test key across starts, stored hashed, rolls it on request and replaces a lost or revoked one', async () => {
    const first = await ensureDemoMerchant(operations, stateFile(), { roll: false });
    expect(first).toEqual({ accountId: expect.stringMatching(/^acct_/), secret: expect.stringMatching(/^sk_test_/), key: 'new' });
    expect(statSync(stateFile()).mode & 0o777).toBe(0o600);
    expect(JSON.stringify(await prisma.apiKey.findMany())).not.toContain(first.secret.slice('sk_test_'.length));
    expect(await operations.activeKey(first.secret)).toMatchObject({ accountId: first.accountId, mode: 'test' });

    // A restart prints the same key, which still authenticates; no second key is made.
    const again = await ensureDemoMerchant(operations, stateFile(), { roll: false });
    expect(again).toEqual({ ...first, key: 'kept' });
    expect(await activeDemoKeys(first.accountId)).toHaveLength(1);

    // Rolling: a new key, the old one revoked, the new one saved for the next start.
    const rolled = await ensureDemoMerchant(operations, stateFile(), { roll: true });
    expect(rolled).toMatchObject({ accountId: first.accountId, key: 'rolled' });
    expect(rolled.secret).not.toBe(first.secret);
    expect(await operations.activeKey(first.secret)).toBeNull();
    expect(JSON.parse(readFileSync(stateFile(), 'utf8'))).toEqual({ account: first.accountId, secret: rolled.secret });
    expect(await ensureDemoMerchant(operations, stateFile(), { roll: false })).toEqual({ ...rolled, key: 'kept' });

    // The key revoked by an operator: the next start makes a new one rather than print a dead key.
    const [onlyKey] = await activeDemoKeys(first.accountId);
    await operations.revokeKey(String(onlyKey));
    const afterRevoke = await ensureDemoMerchant(operations, stateFile(), { roll: false });
    expect(afterRevoke.key).toBe('new');
    expect(await operations.activeKey(afterRevoke.secret)).not.toBeNull();

    // The state folder deleted: a new key, and the one nobody can show any more is revoked.
    rmSync(stateFile());
    const afterLoss = await ensureDemoMerchant(operations, stateFile(), { roll: false });
    expect(afterLoss.key).toBe('new');
    expect(await operations.activeKey(afterRevoke.secret)).toBeNull();
    expect(await activeDemoKeys(first.accountId)).toHaveLength(1);
    expect((await operations.listAccounts()).filter((a) => a.name === 'Demo Shop')).toHaveLength(1);
  });
});
