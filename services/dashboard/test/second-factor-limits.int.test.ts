// Risk covered: the second factor guessed without bound (issue 35 item 4) — a correct password that
// started the email's failure count afresh, so every password sign-in bought new code guesses; the
// turn-off and set-up forms counting no wrong codes at all; a right code accepted on a locked email;
// a code accepted twice within its 30 seconds. Real PostgreSQL, the use cases as the routes call them.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate, generateSecret } from 'otplib';
import { ApiError } from '@hc/errors';
import { secretBoxFromEnv } from '@hc/secrets';
import { TEST_SECRETS_ENCRYPTION_KEYS, createTestDatabase, type TestDatabase } from '@hc/test-kit';
import { FAILURES_PER_EMAIL } from '../src/domain/sign-in-limits.ts';
import { DASHBOARD_MIGRATIONS_DIR } from '../src/migrations.ts';
import { createDashboardPrisma, type DashboardPrisma } from '../src/store/prisma.ts';
import { AuditStore } from '../src/store/audit-store.ts';
import { NoticeStore } from '../src/store/notice-store.ts';
import { TeamStore } from '../src/store/team-store.ts';
import { UserStore } from '../src/store/user-store.ts';
import { countedCheck } from '../src/use-cases/counted-check.ts';
import { createUser } from '../src/use-cases/create-user.ts';
import type { DashboardDependencies } from '../src/use-cases/dependencies.ts';
import { resumeSession } from '../src/use-cases/resume-session.ts';
import { passSecondFactor } from '../src/use-cases/second-factor.ts';
import { signIn } from '../src/use-cases/sign-in.ts';
import { beginTwoFactor, confirmTwoFactor, disableTwoFactor } from '../src/use-cases/two-factor-setup.ts';

const PASSWORD = 'correct horse battery staple';
let db: TestDatabase;
let prisma: DashboardPrisma;
let clock = new Date('2026-11-23T10:00:00.000Z').getTime();
let deps: DashboardDependencies;
beforeAll(async () => {
  db = await createTestDatabase('dashboard', DASHBOARD_MIGRATIONS_DIR);
  prisma = createDashboardPrisma(db.url);
  deps = {
    users: new UserStore(prisma, secretBoxFromEnv(TEST_SECRETS_ENCRYPTION_KEYS)),
    notices: new NoticeStore(prisma),
    team: new TeamStore(prisma),
    audit: new AuditStore(prisma),
    now: () => new Date(clock),
    publicBaseUrl: 'http://127.0.0.1',
  };
});
afterAll(async () => {
  await prisma.$disconnect();
  await db.drop();
});

let counter = 0;
/** A user with a password and, unless told otherwise, two-factor on with a known secret. */
async function newUser(twoFactor = true): Promise<{ email: string; secret: string; address: string }> {
  counter += 1;
  const email = `limits${counter}@shop.example`;
  const { user } = await createUser(deps, { accountId: 'acct_limits', email, password: PASSWORD });
  const secret = generateSecret();
  if (twoFactor) await deps.users.enableTotp(user.id, secret, 0);
  return { email, secret, address: `203.0.113.${counter}` };
}

const epoch = (): number => Math.floor(clock / 1000);
const rightCode = (secret: string): Promise<string> => generate({ secret, epoch: epoch() });
/** A code that is none of the three the server accepts now (one step either side). */
async function wrongCode(secret: string): Promise<string> {
  const accepted = await Promise.all([-30, 0, 30].map((offset) => generate({ secret, epoch: epoch() + offset })));
  for (let n = 0; ; n += 1) {
    const code = String(n).padStart(6, '0');
    if (!accepted.includes(code)) return code;
  }
}

/** Signs in with the right password: the half-open session's secret, or null when refused. */
async function passwordStep(who: { email: string; address: string }): Promise<string | null> {
  const result = await signIn(deps, { email: who.email, password: PASSWORD, clientAddress: who.address });
  return result.ok ? result.sessionSecret : null;
}

async function codeStep(secret: string, code: string, address: string) {
  const session = await resumeSession(deps, secret);
  if (!session) throw new Error('the half-open session is gone');
  return (await passSecondFactor(deps, secret, session, code, address)).outcome;
}

async function signedInUser(email: string) {
  const user = await deps.users.userByEmail(email);
  if (!user) throw new Error('no such user');
  return user;
}

describe('the second factor at sign-in', () => {
  it('password and wrong-code cycles lock the email: a right password does not start the count afresh', async () => {
    const who = await newUser();
    const outcomes: string[] = [];
    for (let cycle = 0; cycle < 3; cycle += 1) {
      const session = await passwordStep(who);
      expect(session).not.toBeNull();
      for (let guess = 0; guess < 2; guess += 1) {
        const outcome = await codeStep(session!, await wrongCode(who.secret), who.address);
        outcomes.push(outcome);
        if (outcome === 'signed-out') break;
      }
      clock += 60_000;
    }
    // The fifth wrong code locked the email and ended the half-open session.
    expect(outcomes).toEqual(['wrong', 'wrong', 'wrong', 'wrong', 'signed-out']);
    // Locked: even the right password is refused now, until the window has passed.
    expect(await passwordStep(who)).toBeNull();
    clock += 16 * 60 * 1000;
    const session = await passwordStep(who);
    expect(session).not.toBeNull();
    expect(await codeStep(session!, await rightCode(who.secret), who.address)).toBe('passed');
  });

  it('refuses a right code once the email is locked, and does not spend it', async () => {
    const who = await newUser();
    const session = await passwordStep(who);
    // Meanwhile someone else guesses the password until the email locks.
    for (let i = 0; i < FAILURES_PER_EMAIL; i += 1)
      await signIn(deps, { email: who.email, password: `wrong ${i}`, clientAddress: '198.51.100.9' });
    expect(await codeStep(session!, await rightCode(who.secret), who.address)).toBe('signed-out');
    expect(await resumeSession(deps, session!)).toBeNull();
    // The refused code was not checked, so not spent either (its step is not recorded as used).
    expect((await signedInUser(who.email)).totpLastStep).toBe(0);
    clock += 16 * 60 * 1000;
    const again = await passwordStep(who);
    expect(await codeStep(again!, await rightCode(who.secret), who.address)).toBe('passed');
  });

  it('a completed sign-in starts the count afresh', async () => {
    const who = await newUser();
    const session = await passwordStep(who);
    for (let i = 0; i < FAILURES_PER_EMAIL - 1; i += 1)
      expect(await codeStep(session!, await wrongCode(who.secret), who.address)).toBe('wrong');
    expect(await codeStep(session!, await rightCode(who.secret), who.address)).toBe('passed');
    // The full session lives on under a new id (session fixation); the half-open one is gone.
    expect(await resumeSession(deps, session!)).toBeNull();
    clock += 30_000;
    const next = await passwordStep(who);
    for (let i = 0; i < FAILURES_PER_EMAIL - 1; i += 1)
      expect(await codeStep(next!, await wrongCode(who.secret), who.address)).toBe('wrong');
  });

  it('accepts a code once: the same code again within its 30 seconds is refused', async () => {
    const who = await newUser();
    clock = Math.floor(clock / 30_000) * 30_000 + 1_000;
    const code = await rightCode(who.secret);
    expect(await codeStep((await passwordStep(who))!, code, who.address)).toBe('passed');
    expect(await codeStep((await passwordStep(who))!, code, who.address)).toBe('wrong');
  });
});

describe('the forms that check a code while signed in', () => {
  async function refusedWith(promise: Promise<void>): Promise<string> {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).code;
  }

  it('turning two-factor off counts wrong codes: the fifth locks the email (sign-in too), and a right code is then refused', async () => {
    const who = await newUser();
    const codes: string[] = [];
    for (let i = 0; i < FAILURES_PER_EMAIL; i += 1)
      codes.push(await refusedWith(disableTwoFactor(deps, await signedInUser(who.email), await wrongCode(who.secret), who.address)));
    expect(codes).toEqual(['invalid_request', 'invalid_request', 'invalid_request', 'invalid_request', 'rate_limited']);
    expect(await passwordStep(who)).toBeNull();
    const user = await signedInUser(who.email);
    expect(await refusedWith(disableTwoFactor(deps, user, await rightCode(who.secret), who.address))).toBe('rate_limited');
    expect((await signedInUser(who.email)).totpSecret).not.toBeNull();
  });

  it('confirming set-up counts wrong codes towards the same lock', async () => {
    const who = await newUser(false);
    const { secret } = await beginTwoFactor(deps, await signedInUser(who.email));
    const user = await signedInUser(who.email);
    for (let i = 0; i < FAILURES_PER_EMAIL - 1; i += 1)
      expect(await refusedWith(confirmTwoFactor(deps, user, await wrongCode(secret), who.address))).toBe('invalid_request');
    expect(await refusedWith(confirmTwoFactor(deps, user, await wrongCode(secret), who.address))).toBe('rate_limited');
    expect(await passwordStep(who)).toBeNull();
    expect((await signedInUser(who.email)).totpSecret).toBeNull();
  });

  it('a right code turns two-factor off', async () => {
    const who = await newUser();
    const code = await rightCode(who.secret);
    await disableTwoFactor(deps, await signedInUser(who.email), code, who.address);
    expect((await signedInUser(who.email)).totpSecret).toBeNull();
  });
});

describe('guesses sent all at once', () => {
  it('run no more checks than the limit allows, and the rest are refused as locked', async () => {
    const who = await newUser();
    let checked = 0;
    // A check that takes as long as a slow password hash, so every guess is in flight together.
    const slowWrongCheck = async (): Promise<boolean> => {
      checked += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return false;
    };
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => countedCheck(deps, { email: who.email, clientAddress: who.address }, slowWrongCheck)),
    );
    expect(checked).toBeLessThanOrEqual(FAILURES_PER_EMAIL);
    expect(outcomes.filter((outcome) => outcome === 'locked').length).toBeGreaterThanOrEqual(20 - FAILURES_PER_EMAIL + 1);
    // And the email is locked for the password too, right password or not.
    expect(await passwordStep(who)).toBeNull();
  });

  it('of passwords, let only the attempts left before the lock through: one, after four failures', async () => {
    const who = await newUser(false);
    for (let i = 0; i < FAILURES_PER_EMAIL - 1; i += 1) await deps.users.recordAttempt(who.email, who.address, false, new Date(clock));
    // Twenty sign-ins with the right password at once: counted before any is recorded, all twenty
    // would see four failures and get in.
    const results = await Promise.all(
      Array.from({ length: 20 }, () => signIn(deps, { email: who.email, password: PASSWORD, clientAddress: who.address })),
    );
    expect(results.filter((result) => result.ok).length).toBeLessThanOrEqual(1);
  });
});
