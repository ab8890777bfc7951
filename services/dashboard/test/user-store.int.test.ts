// Risk covered: a once-only rule of dashboard sign-in broken under real PostgreSQL concurrency — a
// set-password link used from two tabs at once setting two passwords, a TOTP code replayed, or a user
// who mistyped and then signed in still counting towards the lock-out (docs/adr/0028 decision 5).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { secretBoxFromEnv } from '@hc/secrets';
import { createTestDatabase, TEST_SECRETS_ENCRYPTION_KEYS, type TestDatabase } from '@hc/test-kit';
import { newSecret, secretHash } from '../src/adapters/tokens.ts';
import type { DashboardUser } from '../src/domain/dashboard-user.ts';
import { FAILURES_PER_EMAIL, signInLocked, windowStart } from '../src/domain/sign-in-limits.ts';
import { DASHBOARD_MIGRATIONS_DIR } from '../src/migrations.ts';
import { createDashboardPrisma, type DashboardPrisma } from '../src/store/prisma.ts';
import { UserStore } from '../src/store/user-store.ts';

let db: TestDatabase;
let prisma: DashboardPrisma;
let store: UserStore;
beforeAll(async () => {
  db = await createTestDatabase('dashboard', DASHBOARD_MIGRATIONS_DIR);
  prisma = createDashboardPrisma(db.url);
  store = new UserStore(prisma, secretBoxFromEnv(TEST_SECRETS_ENCRYPTION_KEYS));
});
afterAll(async () => {
  await prisma.$disconnect();
  await db.drop();
});

const now = new Date('2026-11-23T10:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
let counter = 0;
async function newUser(
  setupLink?: { tokenHash: string; expiresAt: Date },
  of: { accountId?: string; email?: string } = {},
): Promise<DashboardUser> {
  counter += 1;
  const user: DashboardUser = {
    id: `dusr_store_${counter}`,
    accountId: of.accountId ?? 'acct_store',
    email: of.email ?? `user${counter}@shop.example`,
    passwordHash: null,
    totpSecret: null,
    totpPendingSecret: null,
    totpLastStep: null,
    role: 'owner',
    createdAt: now,
  };
  expect(await store.insertUser(user, setupLink)).toBe(true);
  return user;
}

describe('a set-password link', () => {
  it('used twice at the same moment sets one password; the other use finds it spent', async () => {
    const token = newSecret();
    const user = await newUser({ tokenHash: secretHash(token), expiresAt: later(60_000) });
    await store.insertSession({
      idHash: secretHash(newSecret()),
      userId: user.id,
      csrfToken: 'c',
      secondFactorDue: false,
      now,
      expiresAt: later(60_000),
    });
    const results = await Promise.all(
      ['$argon2id$first', '$argon2id$second'].map((hash) => store.usePasswordLink(secretHash(token), hash, later(1_000))),
    );
    const winners = results.filter((r): r is DashboardUser => r !== null && r !== 'address_in_use');
    expect(winners).toHaveLength(1);
    expect((await store.userById(user.id))?.passwordHash).toBe(winners[0]!.passwordHash);
    expect(await store.userForPasswordLink(secretHash(token), later(2_000))).toBeNull();
    // Every session of the user ended with the password change.
    expect(await prisma.dashboardSession.count({ where: { userId: user.id } })).toBe(0);
  });

  it('works only until it expires', async () => {
    const token = newSecret();
    await newUser({ tokenHash: secretHash(token), expiresAt: later(60_000) });
    expect(await store.usePasswordLink(secretHash(token), '$argon2id$late', later(60_000))).toBeNull();
    expect(await store.userForPasswordLink(secretHash(token), later(59_999))).not.toBeNull();
  });
});

describe('an invitation (issue 47 item 6, docs/adr/0082)', () => {
  it('holds no address: two accounts invite one email; the first to set a password holds it, the other link answers address_in_use and stays unused', async () => {
    const email = 'sought-after@shop.example';
    const [first, second] = [newSecret(), newSecret()];
    const a = await newUser({ tokenHash: secretHash(first), expiresAt: later(60_000) }, { accountId: 'acct_inv_a', email });
    const b = await newUser({ tokenHash: secretHash(second), expiresAt: later(60_000) }, { accountId: 'acct_inv_b', email });
    expect(await store.userByEmail(email)).toBeNull();
    expect(await store.usePasswordLink(secretHash(second), '$argon2id$b', later(1_000))).toMatchObject({ id: b.id });
    expect((await store.userByEmail(email))?.id).toBe(b.id);
    expect(await store.usePasswordLink(secretHash(first), '$argon2id$a', later(1_000))).toBe('address_in_use');
    expect((await store.userById(a.id))?.passwordHash).toBeNull();
    expect((await store.userForPasswordLink(secretHash(first), later(2_000)))?.id).toBe(a.id);
    // One user per email within an account, invited or not.
    expect(await store.insertUser({ ...a, id: 'dusr_store_again' })).toBe(false);
  });

  it('expires with its link: the purge removes an invited user a day after the link ended, never a signed-up one', async () => {
    const token = newSecret();
    const invited = await newUser({ tokenHash: secretHash(token), expiresAt: later(60_000) }, { accountId: 'acct_inv_c' });
    const signedUp = await newUser(undefined, { accountId: 'acct_inv_c' });
    await prisma.dashboardUser.update({ where: { id: signedUp.id }, data: { passwordHash: '$argon2id$x' } });
    await store.purge(later(60_000 + 60_000));
    expect(await store.userById(invited.id)).not.toBeNull();
    await store.purge(later(60_000 + 24 * 60 * 60 * 1000 + 1));
    expect(await store.userById(invited.id)).toBeNull();
    expect(await store.userById(signedUp.id)).not.toBeNull();
  });
});

describe('a TOTP step', () => {
  it('is accepted once; the same or an earlier step is refused afterwards', async () => {
    const user = await newUser();
    await store.enableTotp(user.id, 'JBSWY3DPEHPK3PXP', 100);
    expect(await store.useTotpStep(user.id, 100)).toBe(false);
    expect(await store.useTotpStep(user.id, 101)).toBe(true);
    expect(await store.useTotpStep(user.id, 101)).toBe(false);
    expect(await store.useTotpStep(user.id, 99)).toBe(false);
  });

  it('sent twice at the same moment is accepted for one request only', async () => {
    const user = await newUser();
    await store.enableTotp(user.id, 'JBSWY3DPEHPK3PXP', 100);
    const results = await Promise.all([store.useTotpStep(user.id, 102), store.useTotpStep(user.id, 102)]);
    expect(results.sort()).toEqual([false, true]);
  });
});

describe('the lock-out counts', () => {
  it('start afresh for the email after a successful sign-in, but keep counting for the address', async () => {
    const { email } = await newUser();
    const address = '203.0.113.7';
    for (let i = 1; i < FAILURES_PER_EMAIL; i += 1) await store.recordAttempt(email, address, false, later(i * 1_000));
    const before = await store.recentFailures(email, address, windowStart(later(10_000)));
    expect(before).toEqual({ forEmail: FAILURES_PER_EMAIL - 1, fromAddress: FAILURES_PER_EMAIL - 1 });
    await store.recordAttempt(email, address, true, later(10_000));
    await store.recordAttempt(email, address, false, later(11_000));
    const after = await store.recentFailures(email, address, windowStart(later(12_000)));
    expect(after).toEqual({ forEmail: 1, fromAddress: FAILURES_PER_EMAIL });
    expect(signInLocked(after)).toBe(false);
  });

  it('lock the email once its failures reach the limit within the window, and forget them after it', async () => {
    const { email } = await newUser();
    for (let i = 0; i < FAILURES_PER_EMAIL; i += 1) await store.recordAttempt(email, `198.51.100.${i}`, false, later(i * 1_000));
    expect(signInLocked(await store.recentFailures(email, '192.0.2.1', windowStart(later(10_000))))).toBe(true);
    const windowLater = later(15 * 60 * 1000 + 5_000);
    expect(signInLocked(await store.recentFailures(email, '192.0.2.1', windowStart(windowLater)))).toBe(false);
  });
});

describe('a session’s one-time notice (flash)', () => {
  it('left while another request of the session is being resumed is shown once, never wiped unseen', async () => {
    // The lost update this guards against: a request (a second tab, an asset, a favicon) reads the
    // session before a form's redirect leaves its notice and clears the notice field after — the page
    // that follows the redirect then says nothing. Raced many times: every notice left is either
    // handed to the racing request or still waiting for the next page.
    const user = await newUser();
    const idHash = secretHash(newSecret());
    await store.insertSession({ idHash, userId: user.id, csrfToken: 'c', secondFactorDue: false, now, expiresAt: later(60_000) });
    for (let i = 0; i < 60; i += 1) {
      const message = `Notice ${i}`;
      const [resumed] = await Promise.all([store.resumeSession(idHash, later(i), 60_000, 3_600_000), store.setFlash(idHash, message)]);
      if (resumed?.flash !== message) expect((await store.resumeSession(idHash, later(i), 60_000, 3_600_000))?.flash).toBe(message);
    }
  });
});

describe('attempts begun at the same moment', () => {
  it('count each other: no more than the limit find the email unlocked, however many are sent at once', async () => {
    const { email } = await newUser();
    const begun = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.beginAttempt(email, `198.51.100.${i}`, later(1_000), windowStart(later(1_000)))),
    );
    expect(begun.filter((attempt) => !signInLocked(attempt.failures)).length).toBeLessThanOrEqual(FAILURES_PER_EMAIL);
    // Each attempt left out of its own count, and every one counted as a failure until told otherwise.
    expect((await store.recentFailures(email, '192.0.2.9', windowStart(later(2_000)))).forEmail).toBe(20);
  });

  it('marked succeeded starts the email afresh; forgotten leaves no trace', async () => {
    const { email } = await newUser();
    const address = '203.0.113.50';
    await store.recordAttempt(email, address, false, later(1_000));
    const kept = await store.beginAttempt(email, address, later(2_000), windowStart(later(2_000)));
    expect(kept.failures.forEmail).toBe(1);
    const forgotten = await store.beginAttempt(email, address, later(3_000), windowStart(later(3_000)));
    expect(forgotten.failures.forEmail).toBe(2);
    await store.forgetAttempt(forgotten.attemptId);
    expect((await store.recentFailures(email, address, windowStart(later(4_000)))).forEmail).toBe(2);
    await store.attemptSucceeded(kept.attemptId);
    expect(await store.recentFailures(email, address, windowStart(later(4_000)))).toEqual({ forEmail: 0, fromAddress: 1 });
  });
});
