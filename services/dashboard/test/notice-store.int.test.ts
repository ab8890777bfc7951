// Risk covered: a security notice shown to, or dismissed by, a user of another account; one user's
// dismissal hiding it from the account's other users; a hand-made notice id breaking the page; old
// notices kept for ever (docs/adr/0038).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { secretBoxFromEnv } from '@hc/secrets';
import { TEST_SECRETS_ENCRYPTION_KEYS, createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { DASHBOARD_MIGRATIONS_DIR } from '../src/migrations.ts';
import { NoticeStore } from '../src/store/notice-store.ts';
import { createDashboardPrisma, type DashboardPrisma } from '../src/store/prisma.ts';
import { UserStore } from '../src/store/user-store.ts';

let db: TestDatabase;
let prisma: DashboardPrisma;
let notices: NoticeStore;
let users: UserStore;
beforeAll(async () => {
  db = await createTestDatabase('dashboard', DASHBOARD_MIGRATIONS_DIR);
  prisma = createDashboardPrisma(db.url);
  notices = new NoticeStore(prisma);
  users = new UserStore(prisma, secretBoxFromEnv(TEST_SECRETS_ENCRYPTION_KEYS));
});
afterAll(async () => {
  await prisma.$disconnect();
  await db.drop();
});

const now = new Date('2026-11-23T10:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
let counter = 0;
async function userOf(accountId: string): Promise<string> {
  counter += 1;
  const id = `usr_notice_${counter}`;
  const user = {
    id,
    accountId,
    email: `n${counter}@shop.example`,
    passwordHash: null,
    totpSecret: null,
    totpPendingSecret: null,
    totpLastStep: null,
    role: 'owner' as const,
    createdAt: now,
  };
  expect(await users.insertUser(user)).toBe(true);
  return id;
}
const change = (accountId: string, at: Date) =>
  notices.insertNotice({
    accountId,
    kind: 'payout_wallet_changed',
    actorEmail: 'a@shop.example',
    oldValue: null,
    newValue: '0x1',
    affected: null,
    at,
  });

describe('security notices', () => {
  it('are shown to every user of the account until each dismisses them, and never to another account', async () => {
    const [first, second, outsider] = [await userOf('acct_a'), await userOf('acct_a'), await userOf('acct_b')];
    const older = await change('acct_a', now);
    const newer = await change('acct_a', later(1_000));
    expect((await notices.undismissed('acct_a', first, now, 5)).map((n) => n.id)).toEqual([newer.id, older.id]);
    expect(await notices.undismissed('acct_b', outsider, now, 5)).toEqual([]);

    // Another account's user cannot dismiss it (nor learn it exists): refused, nothing recorded.
    expect(await notices.dismiss('acct_b', outsider, newer.id, later(2_000))).toBe(false);
    expect(await notices.dismiss('acct_a', first, newer.id, later(2_000))).toBe(true);
    expect(await notices.dismiss('acct_a', first, newer.id, later(3_000))).toBe(true);
    expect((await notices.undismissed('acct_a', first, now, 5)).map((n) => n.id)).toEqual([older.id]);
    expect((await notices.undismissed('acct_a', second, now, 5)).map((n) => n.id)).toEqual([newer.id, older.id]);
  });

  it('take any hand-made id calmly', async () => {
    const user = await userOf('acct_c');
    for (const id of ['', 'x', '0', '-1', '__proto__', '1e3', '99999999999999999999999'])
      expect(await notices.dismiss('acct_c', user, id, now)).toBe(false);
    await notices.deleteNotice('acct_c', 'x');
  });

  it('are withdrawn only within their own account, and purged once old', async () => {
    const user = await userOf('acct_d');
    const notice = await change('acct_d', now);
    await notices.deleteNotice('acct_e', notice.id);
    expect(await notices.undismissed('acct_d', user, now, 5)).toHaveLength(1);
    await notices.purge(later(1));
    expect(await notices.undismissed('acct_d', user, new Date(0), 5)).toEqual([]);
  });

  it('keeps the started, unpaid payments named at the change, and an unknown list as null', async () => {
    const user = await userOf('acct_c');
    await notices.insertNotice({
      accountId: 'acct_c',
      kind: 'payout_wallet_changed',
      actorEmail: 'a@shop.example',
      oldValue: '0x1',
      newValue: '0x2',
      affected: { ids: ['pay_2', 'pay_1'], count: 2 },
      at: now,
    });
    const [shown] = await notices.undismissed('acct_c', user, now, 5);
    expect(shown).toMatchObject({ affectedPaymentIds: ['pay_2', 'pay_1'], affectedCount: 2 });
    await change('acct_c', later(1_000));
    expect((await notices.undismissed('acct_c', user, now, 5))[0]).toMatchObject({ affectedPaymentIds: [], affectedCount: null });
  });
});
