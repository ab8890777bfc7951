// Risk covered: the key directory's change feed (docs/adr/0085) missing a revocation or suspension that was
// answered (so a gateway would keep a cached key working), the operator's verbs over gRPC doing something
// other than the use cases, or an account change reaching no other context (no event in the outbox).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createServiceClient, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import { accountUpdatedSubject, apiKeyRevokedSubject } from '@hc/events/contracts';
import { createLogger } from '@hc/logging';
import { AccountsOperatorService, KeyDirectoryService } from '@hc/proto/accounts/v1';
import { MerchantAdminService as LegacyMerchantAdminService } from '@hc/proto/gateway/v1';
import { createTestDatabase, testNatsPrefix, testNatsUrl, type TestDatabase } from '@hc/test-kit';
import {
  ACCOUNTS_MIGRATIONS_DIR,
  hashApiKey,
  loadAccountsConfig,
  startAccountsService,
  type RunningAccountsService,
} from '../src/index.ts';

let db: TestDatabase;
let service: RunningAccountsService;
let operator: ServiceClient<typeof AccountsOperatorService, PublicCallContext>;
let directory: ServiceClient<typeof KeyDirectoryService, PublicCallContext>;
const ctx: PublicCallContext = { requestId: 'req_test' };

beforeAll(async () => {
  db = await createTestDatabase('accounts', ACCOUNTS_MIGRATIONS_DIR);
  const config = loadAccountsConfig({
    ACCOUNTS_DATABASE_URL: db.url,
    ACCOUNTS_GRPC_ADDRESS: '127.0.0.1:0',
    NATS_URL: testNatsUrl(),
    NATS_SUBJECT_PREFIX: testNatsPrefix('accounts'),
    LOG_LEVEL: 'silent',
  });
  service = await startAccountsService(config, createLogger('accounts-test', { level: 'silent' }));
  operator = createServiceClient<typeof AccountsOperatorService, PublicCallContext>(AccountsOperatorService, service.address, {
    timeoutMs: 30_000,
  });
  directory = createServiceClient<typeof KeyDirectoryService, PublicCallContext>(KeyDirectoryService, service.address, {
    timeoutMs: 30_000,
  });
});
afterAll(async () => {
  operator?.close();
  directory?.close();
  await service?.stop();
  await db?.drop();
});

async function outboxSubjects(): Promise<string[]> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ subject: string }>('SELECT subject FROM outbox_messages ORDER BY seq');
    return rows.map((row) => row.subject);
  } finally {
    await client.end();
  }
}

describe('the operator service and the key directory', () => {
  it('lists, after a position, every answered revocation and suspension, and the position moves past them', async () => {
    const { account } = await operator.createAccount({ name: 'Shop', payoutWallet: '0x' + '1'.repeat(40) }, ctx);
    const { key, secret } = await operator.createAccountApiKey({ accountId: account!.id, mode: 'live', label: 'server' }, ctx);
    const found = await directory.findKeyByHash({ keyHash: hashApiKey(secret) }, ctx);
    expect(found.entry?.key?.id).toBe(key!.id);
    expect(found.entry?.account).toMatchObject({ id: account!.id, status: 'active', feeBps: 150 });
    const start = await directory.changes({}, ctx);
    expect(start.changes).toEqual([]);
    expect(start.position).toBe(found.position);

    await operator.revokeAnyApiKey({ id: key!.id }, ctx);
    await operator.suspendAccount({ accountId: account!.id }, ctx);
    const after = await directory.changes({ after: start.position }, ctx);
    expect(after.reset).toBe(false);
    expect(after.changes.map((change) => change.keyHash ?? change.accountId)).toEqual([hashApiKey(secret), account!.id]);
    expect(after.position).toBe(after.changes.at(-1)!.position);
    expect(after.position).toBeGreaterThan(start.position);
    expect((await directory.changes({ after: after.position }, ctx)).changes).toEqual([]);

    const revoked = await directory.findKeyByHash({ keyHash: hashApiKey(secret) }, ctx);
    expect(revoked.entry?.key?.revoked).toBeDefined();
    expect(revoked.entry?.account?.status).toBe('suspended');
    expect(revoked.position).toBe(after.position);
    expect((await directory.findKeyByHash({ keyHash: 'f'.repeat(64) }, ctx)).entry).toBeUndefined();
  });

  it('queues account.updated and api_key.revoked events in the transaction of each change', async () => {
    const { account } = await operator.createAccount({ name: 'Evented' }, ctx);
    const { key } = await operator.createAccountApiKey({ accountId: account!.id, mode: 'test' }, ctx);
    await operator.setAccountPayoutWallet({ accountId: account!.id, payoutWallet: '0x' + '2'.repeat(40) }, ctx);
    await operator.revokeAnyApiKey({ id: key!.id }, ctx);
    await operator.revokeAnyApiKey({ id: key!.id }, ctx);
    const mine = (await outboxSubjects()).filter((subject) => subject.endsWith(account!.id) || subject.endsWith(key!.id));
    expect(mine).toEqual([accountUpdatedSubject(account!.id), accountUpdatedSubject(account!.id), apiKeyRevokedSubject(key!.id)]);
  });

  it('refuses a key of an unknown mode and answers not_found for an unknown account', async () => {
    const { account } = await operator.createAccount({ name: 'Modes' }, ctx);
    await expect(operator.createAccountApiKey({ accountId: account!.id, mode: 'prod' }, ctx)).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(operator.getAccountById({ accountId: 'acct_missing' }, ctx)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('still answers the previous release name of the merchant admin service (rolling upgrade)', async () => {
    const { account } = await operator.createAccount({ name: 'Legacy caller', feeBps: 90 }, ctx);
    const legacy = createServiceClient(LegacyMerchantAdminService, service.address, { timeoutMs: 30_000 });
    try {
      const answer = await legacy.getAccount({}, { accountId: account!.id, livemode: false, requestId: 'req_legacy' });
      expect(answer.account).toMatchObject({ id: account!.id, feeBps: 90, status: 'active' });
    } finally {
      legacy.close();
    }
  });
});
