// Risk covered (issue 35, item 7): two-factor seeds readable by anyone who reads the dashboard's
// database — seeds stored before encryption left in plaintext, the pending seed of a set-up in
// progress forgotten, or a sealed seed copied onto another user (or the other column) accepted there,
// making the second factor someone else's. Real PostgreSQL; codes from otplib as an authenticator app.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import { createLogger } from '@hc/logging';
import { SecretDecryptError, secretBoxFromEnv } from '@hc/secrets';
import { createTestDatabase, NOT_RUNNING_ADDRESS, TEST_SECRETS_ENCRYPTION_KEYS, type TestDatabase } from '@hc/test-kit';
import { newTotpSecret } from '../src/adapters/totp.ts';
import { loadDashboardConfig } from '../src/config.ts';
import { startDashboard } from '../src/dashboard-server.ts';
import type { DashboardUser } from '../src/domain/dashboard-user.ts';
import { DASHBOARD_MIGRATIONS_DIR } from '../src/migrations.ts';
import { AuditStore } from '../src/store/audit-store.ts';
import { NoticeStore } from '../src/store/notice-store.ts';
import { TeamStore } from '../src/store/team-store.ts';
import { createDashboardPrisma, type DashboardPrisma } from '../src/store/prisma.ts';
import { UserStore } from '../src/store/user-store.ts';
import type { DashboardDependencies } from '../src/use-cases/dependencies.ts';
import { beginTwoFactor, confirmTwoFactor, disableTwoFactor } from '../src/use-cases/two-factor-setup.ts';
import { unixSeconds } from '@hc/conversions';

const logger = createLogger('dashboard-totp-test', { level: 'silent' });
let db: TestDatabase;
let prisma: DashboardPrisma;
let deps: DashboardDependencies;
let clock = new Date('2026-11-23T10:00:00.000Z');

beforeAll(async () => {
  db = await createTestDatabase('dashboard', DASHBOARD_MIGRATIONS_DIR);
  prisma = createDashboardPrisma(db.url);
  deps = {
    users: new UserStore(prisma, secretBoxFromEnv(TEST_SECRETS_ENCRYPTION_KEYS)),
    notices: new NoticeStore(prisma),
    team: new TeamStore(prisma),
    audit: new AuditStore(prisma),
    now: () => clock,
    publicBaseUrl: 'http://x',
  };
});
afterAll(async () => {
  await prisma.$disconnect();
  await db.drop();
});

let counter = 0;
async function newUser(): Promise<DashboardUser> {
  counter += 1;
  const user: DashboardUser = {
    id: `dusr_totp_${counter}`,
    accountId: 'acct_totp',
    email: `totp${counter}@shop.example`,
    passwordHash: null,
    totpSecret: null,
    totpPendingSecret: null,
    totpLastStep: null,
    role: 'owner',
    createdAt: clock,
  };
  expect(await deps.users.insertUser(user)).toBe(true);
  return user;
}

const raw = async (id: string) =>
  prisma.dashboardUser.findUniqueOrThrow({ where: { id }, select: { totpSecret: true, totpPendingSecret: true } });
const codeFor = (seed: string) => generate({ secret: seed, epoch: unixSeconds(clock) });
const reread = async (id: string) => (await deps.users.userById(id))!;
/** The dashboard started on this database (its HTTP and gRPC listeners on free ports), then stopped. */
async function startAndStop(keys: string | undefined): Promise<void> {
  const config = loadDashboardConfig({
    DASHBOARD_DATABASE_URL: db.url,
    DASHBOARD_PORT: '0',
    DASHBOARD_GRPC_ADDRESS: '127.0.0.1:0',
    ACCOUNTS_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
    CHECKOUT_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
    CUSTOMERS_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
    WEBHOOKS_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
    NOTIFICATIONS_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
    ...(keys ? { SECRETS_ENCRYPTION_KEYS: keys } : {}),
  });
  await (await startDashboard(config, logger)).stop();
}

describe('two-factor seeds at rest', () => {
  it('the pending and the confirmed seed are stored sealed; codes from the app still turn it on and off', async () => {
    const user = await newUser();
    const { secret: seed } = await beginTwoFactor(deps, user);
    const pending = await raw(user.id);
    expect(pending.totpPendingSecret).toMatch(/^v1:test-1:/);
    expect(pending.totpPendingSecret).not.toContain(seed);

    await confirmTwoFactor(deps, await reread(user.id), await codeFor(seed), '127.0.0.1');
    const on = await raw(user.id);
    expect(on).toEqual({ totpSecret: expect.stringMatching(/^v1:test-1:/), totpPendingSecret: null });
    expect(on.totpSecret).not.toContain(seed);
    expect((await reread(user.id)).totpSecret).toBe(seed);

    clock = new Date(clock.getTime() + 30_000);
    await disableTwoFactor(deps, await reread(user.id), await codeFor(seed), '127.0.0.1');
    expect(await raw(user.id)).toEqual({ totpSecret: null, totpPendingSecret: null });
  });

  it('plaintext seeds from before encryption are sealed at the next start, and still give the same codes', async () => {
    const [on, settingUp] = [await newUser(), await newUser()];
    const [seedOn, seedPending] = [newTotpSecret(), newTotpSecret()];
    await prisma.dashboardUser.update({ where: { id: on.id }, data: { totpSecret: seedOn, totpLastStep: 1n } });
    await prisma.dashboardUser.update({ where: { id: settingUp.id }, data: { totpPendingSecret: seedPending } });

    await startAndStop(TEST_SECRETS_ENCRYPTION_KEYS);
    expect((await raw(on.id)).totpSecret).toMatch(/^v1:test-1:/);
    expect((await raw(settingUp.id)).totpPendingSecret).toMatch(/^v1:test-1:/);
    const stored = (await prisma.dashboardUser.findMany()).flatMap((u) => [u.totpSecret, u.totpPendingSecret]).join();
    expect(stored).not.toMatch(new RegExp(`${seedOn}|${seedPending}`));
    expect(await deps.users.totp.countNotCurrent()).toBe(0);
    expect((await reread(on.id)).totpSecret).toBe(seedOn);
    await confirmTwoFactor(deps, await reread(settingUp.id), await codeFor(seedPending), '127.0.0.1');
    expect((await reread(settingUp.id)).totpSecret).toBe(seedPending);
  });

  it('refuses to start without SECRETS_ENCRYPTION_KEYS', async () => {
    await expect(startAndStop(undefined)).rejects.toThrow(/SECRETS_ENCRYPTION_KEYS is not set/);
  });

  it('a sealed seed copied onto another user, or from the pending column to the active one, does not open', async () => {
    const [a, b] = [await newUser(), await newUser()];
    await beginTwoFactor(deps, a);
    const { totpPendingSecret: sealed } = await raw(a.id);
    await prisma.dashboardUser.update({ where: { id: b.id }, data: { totpSecret: sealed } });
    await expect(deps.users.userById(b.id)).rejects.toBeInstanceOf(SecretDecryptError);
    await expect(deps.users.userById(b.id)).rejects.toThrow(/dashboard_users\.totp_secret of dusr_totp_\d+ .*copied from another row/);
    await prisma.dashboardUser.update({ where: { id: a.id }, data: { totpSecret: sealed } });
    await expect(deps.users.userById(a.id)).rejects.toThrow(/dashboard_users\.totp_secret/);
    // Both left unusable, never accepted: clean them up so later starts of this database succeed.
    await prisma.dashboardUser.updateMany({ where: { id: { in: [a.id, b.id] } }, data: { totpSecret: null } });
  });
});
