// Risk covered: an install upgraded from a release whose gateway held accounts and keys loses them: a
// merchant's existing key stops authenticating, a revoked one comes back, or a suspended account's key
// works again once the rows moved into the accounts context (docs/adr/0086). The previous schema is the
// gateway's own database here (its migrations are kept); the move is the one the runner and the chart run.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { importAccountsFromGateway } from '@hc/accounts';
import { expectError, VALID_BODY } from './e2e-helpers.ts';
import { startPlatform, type Platform } from './platform-harness.ts';

let platform: Platform;
beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(async () => {
  await platform?.stop();
});

const key = (tail: string): string => `sk_test_${tail.repeat(32 / tail.length)}`;
const hash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Rows as the previous release's gateway stored them, in its own database. */
async function plantInGatewayDatabase(): Promise<{ active: string; revoked: string; suspended: string }> {
  const keys = { active: key('Ab'), revoked: key('Cd'), suspended: key('Ef') };
  const client = new pg.Client({ connectionString: platform.gatewayDatabaseUrl });
  await client.connect();
  try {
    await client.query(`INSERT INTO merchant_accounts (id, name, status, payout_wallet, fee_bps, created_at) VALUES
      ('acct_moved', 'Moved shop', 'active', '0x${'3'.repeat(40)}', 90, now()),
      ('acct_moved_suspended', 'Suspended shop', 'suspended', NULL, 150, now())`);
    await client.query(
      `INSERT INTO api_keys (id, account_id, mode, key_hash, hint, label, created_at, revoked_at) VALUES
        ('key_moved', 'acct_moved', 'test', $1, 'sk_test_…AbAb', NULL, now(), NULL),
        ('key_moved_revoked', 'acct_moved', 'test', $2, 'sk_test_…CdCd', NULL, now(), now()),
        ('key_moved_suspended', 'acct_moved_suspended', 'test', $3, 'sk_test_…EfEf', NULL, now(), NULL)`,
      [hash(keys.active), hash(keys.revoked), hash(keys.suspended)],
    );
  } finally {
    await client.end();
  }
  return keys;
}

describe("accounts moved from the gateway's database", () => {
  it('authenticate through the gateway as before: the old key works, a revoked one and a suspended account stay refused', async () => {
    const keys = await plantInGatewayDatabase();
    // Before the move the accounts context does not know them, and neither does the gateway.
    await expectError(
      await platform.request('POST', '/v1/checkout_sessions', { key: keys.active, body: VALID_BODY }),
      401,
      'invalid_api_key',
    );
    expect(await importAccountsFromGateway(platform.accountsDatabaseUrl, platform.gatewayDatabaseUrl)).toEqual({
      accounts: 2,
      keys: 3,
      revocations: 0,
    });
    expect((await platform.request('POST', '/v1/checkout_sessions', { key: keys.active, body: VALID_BODY })).status).toBe(201);
    await expectError(
      await platform.request('POST', '/v1/checkout_sessions', { key: keys.revoked, body: VALID_BODY }),
      401,
      'invalid_api_key',
    );
    await expectError(await platform.request('POST', '/v1/checkout_sessions', { key: keys.suspended, body: VALID_BODY }), 403, 'suspended');
    expect(await platform.operations.getAccount('acct_moved')).toMatchObject({ feeBps: 90, payoutWallet: `0x${'3'.repeat(40)}` });
  });
});
