// Risk covered: the dashboard's only path to accounts and API keys (docs/adr/0028) leaking another
// account's or mode's keys, revoking them, or handing out a secret that the public API's key lookup
// does not honour (or still honours after revocation); a suspended merchant changing its payout wallet
// or making API keys there, or the operator being unable to fix a suspended account's wallet (ADR 0037).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createGrpcServer, createServiceClient, type CallContext, type GrpcServer, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { MerchantAdminService } from '@hc/proto/accounts/v1';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { merchantAdminHandlers } from '../src/api/grpc/merchant-admin-handlers.ts';
import { ACCOUNTS_MIGRATIONS_DIR } from '../src/index.ts';
import { BrandStore } from '../src/store/brand-store.ts';
import { MerchantStore, NO_KEY_CACHES } from '../src/store/merchant-store.ts';
import { createAccountsPrisma, type AccountsPrisma } from '../src/store/prisma.ts';
import { createAccount } from '../src/use-cases/create-account.ts';
import { createApiKey } from '../src/use-cases/create-api-key.ts';
import { findActiveKey } from '../src/use-cases/find-active-key.ts';
import { reactivateAccount } from '../src/use-cases/reactivate-account.ts';
import { setPayoutWallet } from '../src/use-cases/set-payout-wallet.ts';
import { suspendAccount } from '../src/use-cases/suspend-account.ts';
import type { MerchantDependencies } from '../src/use-cases/merchant-dependencies.ts';

let db: TestDatabase;
let prisma: AccountsPrisma;
let server: GrpcServer;
let client: ServiceClient<typeof MerchantAdminService>;
let deps: MerchantDependencies;
let a: CallContext;
let b: CallContext;

beforeAll(async () => {
  db = await createTestDatabase('accounts', ACCOUNTS_MIGRATIONS_DIR);
  prisma = createAccountsPrisma(db.url);
  deps = { store: new MerchantStore(prisma, NO_KEY_CACHES), now: () => new Date() };
  server = createGrpcServer(createLogger('accounts-admin-test', { level: 'silent' }));
  server.add(MerchantAdminService, merchantAdminHandlers({ ...deps, brands: new BrandStore(prisma) }));
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

describe('hc.accounts.v1.MerchantAdminService (internal: the dashboard, checkout, settlement)', () => {
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

describe('a suspended account (ADR 0037)', () => {
  const WALLET = '0x2222222222222222222222222222222222222222';
  const OTHER = '0x7777777777777777777777777777777777777777';

  it('refuses the merchant a wallet change and a new key (403 suspended), for every caller of the use cases, and changes nothing', async () => {
    const shop = await createAccount(deps, { name: 'Suspended shop', payoutWallet: WALLET });
    const ctx: CallContext = { accountId: shop.id, livemode: true, requestId: 'req_s' };
    await suspendAccount(deps, shop.id);
    // Over the dashboard's gRPC path…
    await expect(client.setPayoutWallet({ payoutWallet: OTHER }, ctx)).rejects.toMatchObject({ code: 'suspended' });
    await expect(client.setPayoutWallet({ payoutWallet: '' }, ctx)).rejects.toMatchObject({ code: 'suspended' });
    await expect(client.createApiKey({ label: 'x' }, ctx)).rejects.toMatchObject({ code: 'suspended' });
    // …and the use cases themselves (the operator CLI's key creation too).
    await expect(setPayoutWallet(deps, shop.id, OTHER)).rejects.toMatchObject({ code: 'suspended' });
    await expect(createApiKey(deps, shop.id, 'test')).rejects.toMatchObject({ code: 'suspended' });
    expect((await client.getAccount({}, ctx)).account).toMatchObject({ status: 'suspended', payoutWallet: WALLET });
    expect((await client.listApiKeys({}, ctx)).keys).toEqual([]);
    expect(await deps.store.listKeys(shop.id)).toEqual([]);
    // Reactivated, the merchant may change both again.
    await reactivateAccount(deps, shop.id);
    expect((await client.setPayoutWallet({ payoutWallet: OTHER }, ctx)).account).toMatchObject({ payoutWallet: OTHER });
    expect((await client.createApiKey({}, ctx)).secret).toMatch(/^sk_live_/);
  });

  it("lets the operator fix a suspended account's wallet (the CLI's override), and the merchant still revoke keys", async () => {
    const shop = await createAccount(deps, { name: 'Operator fixes', payoutWallet: WALLET });
    const ctx: CallContext = { accountId: shop.id, livemode: false, requestId: 'req_o' };
    const { key } = await client.createApiKey({}, ctx);
    await suspendAccount(deps, shop.id);
    expect(await setPayoutWallet(deps, shop.id, OTHER, { evenWhenSuspended: true })).toMatchObject({
      status: 'suspended',
      payoutWallet: OTHER,
    });
    expect((await client.revokeApiKey({ id: key!.id }, ctx)).key!.revoked).toBeDefined();
  });

  it('an unknown account stays not_found, not suspended', async () => {
    await expect(setPayoutWallet(deps, 'acct_missing', OTHER)).rejects.toMatchObject({ code: 'not_found' });
    await expect(createApiKey(deps, 'acct_missing', 'test')).rejects.toMatchObject({ code: 'not_found' });
  });
});
