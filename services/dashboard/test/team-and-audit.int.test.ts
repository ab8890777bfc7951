// Risk covered: an account left without an owner (two owners demoting each other at once), a removed
// user whose session keeps working, a team change reaching another account's user, and an audit log
// that can be rewritten or read across accounts (docs/adr/0055, 0056). Real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { secretBoxFromEnv } from '@hc/secrets';
import { TEST_SECRETS_ENCRYPTION_KEYS, createTestDatabase, type TestDatabase } from '@hc/test-kit';
import type { Role } from '../src/domain/roles.ts';
import { DASHBOARD_MIGRATIONS_DIR } from '../src/migrations.ts';
import { AuditStore } from '../src/store/audit-store.ts';
import { createDashboardPrisma, type DashboardPrisma } from '../src/store/prisma.ts';
import { TeamStore } from '../src/store/team-store.ts';
import { UserStore } from '../src/store/user-store.ts';

let db: TestDatabase;
let prisma: DashboardPrisma;
let users: UserStore;
let team: TeamStore;
let audit: AuditStore;
beforeAll(async () => {
  db = await createTestDatabase('dashboard', DASHBOARD_MIGRATIONS_DIR);
  prisma = createDashboardPrisma(db.url);
  users = new UserStore(prisma, secretBoxFromEnv(TEST_SECRETS_ENCRYPTION_KEYS));
  team = new TeamStore(prisma);
  audit = new AuditStore(prisma);
});
afterAll(async () => {
  await prisma.$disconnect();
  await db.drop();
});

const now = new Date('2026-11-25T10:00:00.000Z');
let counter = 0;
async function member(accountId: string, role: Role): Promise<string> {
  counter += 1;
  const id = `usr_team_${counter}`;
  const user = { id, accountId, email: `t${counter}@shop.example`, passwordHash: null, totpSecret: null, totpPendingSecret: null };
  expect(await users.insertUser({ ...user, totpLastStep: null, role, createdAt: now })).toBe(true);
  return id;
}

describe('the team', () => {
  it('keeps one owner even when two owners demote each other at the same moment', async () => {
    const [a, b] = [await member('acct_t1', 'owner'), await member('acct_t1', 'owner')];
    const outcomes = await Promise.all([team.change('acct_t1', a, 'viewer'), team.change('acct_t1', b, 'viewer')]);
    expect(outcomes.filter((o) => o === 'last_owner')).toHaveLength(1);
    expect((await team.members('acct_t1', new Date())).filter((m) => m.role === 'owner')).toHaveLength(1);
  });

  it('a removed user’s session ends at once; another account cannot touch its users', async () => {
    const owner = await member('acct_t2', 'owner');
    const dev = await member('acct_t2', 'developer');
    await users.insertSession({
      idHash: 'h_dev',
      userId: dev,
      csrfToken: 'c',
      secondFactorDue: false,
      now,
      expiresAt: new Date(now.getTime() + 3_600_000),
    });
    expect(await users.resumeSession('h_dev', now, 3_600_000, 7_200_000)).not.toBeNull();
    expect(await team.change('acct_other', dev, null)).toBe('not_found');
    expect(await team.change('acct_t2', dev, null)).toMatchObject({ id: dev, role: 'developer' });
    expect(await users.resumeSession('h_dev', now, 3_600_000, 7_200_000)).toBeNull();
    expect(await team.change('acct_t2', owner, null)).toBe('last_owner');
  });
});

describe('the audit log', () => {
  const entry = (accountId: string, action: string) => ({
    accountId,
    at: now,
    actorKind: 'user' as const,
    actor: 'ann@shop.example',
    clientAddress: '127.0.0.1',
    action,
    mode: 'test' as const,
    target: null,
    outcome: 'done' as const,
    status: 303,
    before: '0x1',
    after: '0x2',
  });

  it('is append-only: the database refuses to change or delete an entry', async () => {
    await audit.append(entry('acct_a1', 'payout_wallet.change'));
    await expect(prisma.auditEntry.updateMany({ where: { accountId: 'acct_a1' }, data: { afterValue: '0x3' } })).rejects.toThrow(
      /append-only/,
    );
    await expect(prisma.auditEntry.deleteMany({ where: { accountId: 'acct_a1' } })).rejects.toThrow(/append-only/);
    await expect(prisma.$executeRawUnsafe('TRUNCATE audit_entries')).rejects.toThrow(/append-only/);
    expect(await audit.list('acct_a1', {})).toHaveLength(1);
  });

  it('lists an account’s entries newest first, filtered and paged, never another account’s', async () => {
    for (const action of ['api_key.create', 'team.invite', 'team.remove', 'api_key.revoke']) await audit.append(entry('acct_a2', action));
    await audit.append(entry('acct_a3', 'team.invite'));
    const all = await audit.list('acct_a2', {});
    expect(all.map((e) => e.action)).toEqual(['api_key.revoke', 'team.remove', 'team.invite', 'api_key.create']);
    expect((await audit.list('acct_a2', { action: 'team.' })).map((e) => e.action)).toEqual(['team.remove', 'team.invite']);
    expect((await audit.list('acct_a2', { before: all[1]!.id })).map((e) => e.action)).toEqual(['team.invite', 'api_key.create']);
    expect(await audit.list('acct_a2', { outcome: 'refused' })).toEqual([]);
    const exported = [];
    for await (const e of audit.each('acct_a2', {})) exported.push(e.id);
    expect(exported).toEqual(all.map((e) => e.id));
  });
});
