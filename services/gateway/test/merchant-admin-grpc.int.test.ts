// Risk covered: the dashboard's only path to accounts and API keys (docs/adr/0028) leaking another
// account's or mode's keys, revoking them, or handing out a secret that the public API's key lookup
// does not honour (or still honours after revocation).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createGrpcServer, createServiceClient, type CallContext, type GrpcServer, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { MerchantAdminService } from '@hc/proto/gateway/v1';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { merchantAdminHandlers } from '../src/api/merchant-admin-handlers.ts';
import { createGatewayPrisma, GATEWAY_MIGRATIONS_DIR, MerchantStore } from '../src/index.ts';
import type { GatewayPrisma } from '../src/store/prisma.ts';
import { createAccount } from '../src/use-cases/create-account.ts';
import { findActiveKey } from '../src/use-cases/find-active-key.ts';
import type { MerchantDependencies } from '../src/use-cases/merchant-dependencies.ts';

let db: TestDatabase;
let prisma: GatewayPrisma;
let server: GrpcServer;
let client: ServiceClient<typeof MerchantAdminService>;
let deps: MerchantDependencies;
let a: CallContext;
let b: CallContext;

beforeAll(async () => {
  db = await createTestDatabase('gateway', GATEWAY_MIGRATIONS_DIR);
  prisma = createGatewayPrisma(db.url);
  deps = { store: new MerchantStore(prisma), now: () => new Date() };
  server = createGrpcServer(createLogger('gateway-admin-test', { level: 'silent' }));
  server.add(MerchantAdminService, merchantAdminHandlers(deps));
  const port = await server.listen('127.0.0.1:0');
  client = createServiceClient(MerchantAdminService, `127.0.0.1:${port}`, { timeoutMs: 30_000 });
  const accountA = await createAccount(deps, { name: 'Shop A', feeBps: 275 });
  const accountB = await createAccount(deps, { name: 'Shop B' });
  a = { accountId: accountA.id, livemode: false, requestId: 'req_a' };
  b = { accountId: accountB.id, livemode: false, requestId: 'req_b' };
});
afterAll(async () => {
  client.close();
  await server.stop(0);
  await prisma.$disconnect();
  await db.drop();
});

describe('hc.gateway.v1.MerchantAdminService (internal, for the dashboard)', () => {
  it('creates a key shown once that the public key lookup honours, lists it by hint, and a revoked key stops working', async () => {
    const created = await client.createApiKey({ label: 'server' }, a);
    expect(created.secret).toMatch(/^sk_test_/);
    expect((await findActiveKey(deps, created.secret))?.accountId).toBe(a.accountId);

    const listed = await client.listApiKeys({}, a);
    expect(listed.keys.map((key) => key.id)).toEqual([created.key!.id]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    const revoked = await client.revokeApiKey({ id: created.key!.id }, a);
    expect(revoked.key!.revoked).toBeDefined();
    expect(await findActiveKey(deps, created.secret)).toBeNull();
  });

  it("another account's key, or the same account's key in the other mode, is not_found and stays active", async () => {
    const { key, secret } = await client.createApiKey({}, a);
    await expect(client.revokeApiKey({ id: key!.id }, b)).rejects.toMatchObject({ code: 'not_found' });
    await expect(client.revokeApiKey({ id: key!.id }, { ...a, livemode: true })).rejects.toMatchObject({ code: 'not_found' });
    expect((await client.listApiKeys({}, b)).keys).toEqual([]);
    expect((await client.listApiKeys({}, { ...a, livemode: true })).keys).toEqual([]);
    expect(await findActiveKey(deps, secret)).not.toBeNull();
  });

  it("reads the caller's own account only", async () => {
    expect((await client.getAccount({}, a)).account).toMatchObject({ id: a.accountId, name: 'Shop A', status: 'active', feeBps: 275 });
    await expect(client.getAccount({}, { ...a, accountId: 'acct_missing' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
