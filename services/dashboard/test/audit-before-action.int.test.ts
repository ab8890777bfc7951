// Risk covered: a change made through the dashboard that the audit log never shows — the process dying
// between the change and its line, or the log's database refusing the line (docs/adr/0060). The line
// is written before the change runs: a forced failure between the change and the completion leaves
// it `started`, never missing; a log that cannot be written stops the change before any service is
// asked; the table lets a started line be completed once and nothing else. Real PostgreSQL and HTTP,
// checkout as a stand-in (@hc/test-kit/fake-client).
import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import type { CallContext } from '@hc/grpc';
import { CheckoutAdminService, CheckoutService } from '@hc/proto/checkout/v1';
import { CustomersService } from '@hc/proto/customers/v1';
import { MerchantAdminService } from '@hc/proto/accounts/v1';
import { NotificationsService } from '@hc/proto/notifications/v1';
import { WebhooksService } from '@hc/proto/webhooks/v1';
import { secretBoxFromEnv } from '@hc/secrets';
import { captureLogs, createTestDatabase, TEST_SECRETS_ENCRYPTION_KEYS, type TestDatabase, openTestPool } from '@hc/test-kit';
import { fakeClient } from '@hc/test-kit/fake-client';
import type pg from 'pg';
import type { AuditCompletion, NewAuditEntry } from '../src/domain/audit.ts';
import { DASHBOARD_MIGRATIONS_DIR } from '../src/migrations.ts';
import { AuditStore } from '../src/store/audit-store.ts';
import { NoticeStore } from '../src/store/notice-store.ts';
import { createDashboardPrisma, type DashboardPrisma } from '../src/store/prisma.ts';
import { TeamStore } from '../src/store/team-store.ts';
import { UserStore } from '../src/store/user-store.ts';
import { createUser } from '../src/use-cases/create-user.ts';
import { serveDashboardApp } from './support/served-app.ts';

/** The real store, with a switch to fail the step a test picks. */
class FailingAuditStore extends AuditStore {
  failStart = false;
  failCompletion = false;
  override append(entry: NewAuditEntry): Promise<string> {
    if (this.failStart && entry.outcome === 'started') return Promise.reject(new Error('audit database unreachable'));
    return super.append(entry);
  }
  override complete(id: string, accountId: string, completion: AuditCompletion): Promise<boolean> {
    // What the database sees when the process dies right after the change: no completion.
    if (this.failCompletion) return Promise.reject(new Error('died between the change and its completion'));
    return super.complete(id, accountId, completion);
  }
}

const logs = captureLogs();
const PASSWORD = 'correct horse battery staple 42';
let db: TestDatabase;
let pool: pg.Pool;
let prisma: DashboardPrisma;
let audit: FailingAuditStore;
let served: Awaited<ReturnType<typeof serveDashboardApp>>;
let base: string;
const accepted: string[] = [];
/** Holds the accept of pay_SLOW until the test lets it go (the browser leaves meanwhile). */
const slowAccept = Promise.withResolvers<void>();

beforeAll(async () => {
  db = await createTestDatabase('dashboard', DASHBOARD_MIGRATIONS_DIR);
  prisma = createDashboardPrisma(db.url);
  pool = openTestPool(db.url, 2);
  audit = new FailingAuditStore(prisma);
  const deps = {
    users: new UserStore(prisma, secretBoxFromEnv(TEST_SECRETS_ENCRYPTION_KEYS)),
    notices: new NoticeStore(prisma),
    team: new TeamStore(prisma),
    audit,
    now: () => new Date(),
    publicBaseUrl: 'http://dashboard.test',
  };
  await createUser(deps, { accountId: 'acct_A', email: 'ann@shop-a.example', password: PASSWORD });
  const payment = (id: string) => ({
    id,
    status: 'paid',
    mode: 'test',
    amount: '19.90',
    currency: 'USD',
    createdAt: 1000n,
    expiresAt: 2000n,
  });
  served = await serveDashboardApp(
    deps,
    {
      admin: fakeClient<typeof MerchantAdminService, CallContext>(MerchantAdminService, {
        async getAccount(_request, ctx) {
          return { account: { id: ctx.accountId, name: 'Shop A', status: 'active', feeBps: 150 } };
        },
      }).client,
      checkout: fakeClient<typeof CheckoutService, CallContext>(CheckoutService, {
        async listPayments() {
          return { data: [], hasMore: false };
        },
        async acceptHeldPayment(request) {
          if (request.id === 'pay_THROWS') throw new Error('a bug in the middle of the change');
          if (request.id === 'pay_SLOW') await slowAccept.promise;
          accepted.push(request.id);
          return { updated: payment(request.id) };
        },
      }).client,
      checkoutAdmin: fakeClient<typeof CheckoutAdminService, CallContext>(CheckoutAdminService, {}).client,
      customers: fakeClient<typeof CustomersService, CallContext>(CustomersService, {}).client,
      webhooks: fakeClient<typeof WebhooksService, CallContext>(WebhooksService, {}).client,
      notifications: fakeClient<typeof NotificationsService, CallContext>(NotificationsService, {}).client,
    },
    logs.destination,
  );
  base = served.base;
});
afterAll(async () => {
  await served.close();
  await prisma.$disconnect();
  await pool.end();
  await db.drop();
});
beforeEach(() => {
  audit.failStart = false;
  audit.failCompletion = false;
  accepted.length = 0;
});

/** A signed-in session (cookie and CSRF token) as a browser holds it. */
async function signedIn(): Promise<{ post: (path: string, signal?: AbortSignal) => Promise<{ status: number; html: string }> }> {
  const headers = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' };
  const signIn = await fetch(`${base}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers,
    body: new URLSearchParams({ email: 'ann@shop-a.example', password: PASSWORD, next: '/dashboard/test/payments' }).toString(),
  });
  const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
  const page = await (await fetch(`${base}/dashboard/test/payments`, { headers: { cookie } })).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
  return {
    async post(path, signal) {
      const answer = await fetch(`${base}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...headers, cookie },
        body: new URLSearchParams({ _csrf: csrf }).toString(),
        ...(signal ? { signal } : {}),
      });
      return { status: answer.status, html: await answer.text() };
    },
  };
}

type Line = { id: string; action: string; target: string | null; outcome: string; status: number | null; completed_at: Date | null };
const lines = async (action: string): Promise<Line[]> =>
  (
    await pool.query<Line>(
      `SELECT id::text, action, target, outcome, status, completed_at FROM audit_entries WHERE account_id = 'acct_A' AND action = $1 ORDER BY id`,
      [action],
    )
  ).rows;

it('the line is written before the change: a failure between the change and its completion leaves it started, not missing', async () => {
  const session = await signedIn();
  audit.failCompletion = true;
  expect((await session.post('/dashboard/test/payments/pay_X1/accept')).status).toBe(303);
  expect(accepted).toEqual(['pay_X1']);
  // The answer is sent before the completion is tried: wait for its failure to be logged.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await lines('payment.accept')).toEqual([
    expect.objectContaining({ target: 'pay_X1', outcome: 'started', status: null, completed_at: null }),
  ]);
  expect(logs.lines.some((line) => line['msg'] === 'audit entry not completed')).toBe(true);

  // With the store back, the next change is completed with its outcome.
  audit.failCompletion = false;
  expect((await session.post('/dashboard/test/payments/pay_X2/accept')).status).toBe(303);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect((await lines('payment.accept'))[1]).toMatchObject({ target: 'pay_X2', outcome: 'done', status: 303 });
});

it('a change whose line cannot be written is not made: 503, and no service is asked', async () => {
  const session = await signedIn();
  audit.failStart = true;
  const answer = await session.post('/dashboard/test/payments/pay_X3/accept');
  expect(answer.status).toBe(503);
  expect(answer.html).toContain('nothing was changed');
  expect(accepted).toEqual([]);
});

/** The line of an action on a target once it is no longer `started` (completed after its answer), 5 s at most. */
async function completedLine(action: string, target: string): Promise<Line | undefined> {
  const until = Date.now() + 5_000;
  for (;;) {
    const found = (await lines(action)).find((line) => line.target === target);
    if ((found && found.outcome !== 'started') || Date.now() > until) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('a change that throws has its line completed: refused with 500, never left started', async () => {
  const session = await signedIn();
  expect((await session.post('/dashboard/test/payments/pay_THROWS/accept')).status).toBe(500);
  expect(await completedLine('payment.accept', 'pay_THROWS')).toMatchObject({
    outcome: 'refused',
    status: 500,
  });
});

it('a browser that leaves during the change: the line is completed once the change ends, with its outcome', async () => {
  const session = await signedIn();
  const leave = new AbortController();
  const posted = session.post('/dashboard/test/payments/pay_SLOW/accept', leave.signal).catch(() => 'left');
  // The change is under way (its line started) when the browser goes away.
  for (let i = 0; i < 50 && !(await lines('payment.accept')).some((line) => line.target === 'pay_SLOW'); i += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
  leave.abort();
  expect(await posted).toBe('left');
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect((await lines('payment.accept')).find((line) => line.target === 'pay_SLOW')).toMatchObject({ outcome: 'started' });
  slowAccept.resolve();
  expect(await completedLine('payment.accept', 'pay_SLOW')).toMatchObject({ outcome: 'done', status: 303 });
  expect(accepted).toContain('pay_SLOW');
});

it('the table lets a started line be completed once, and nothing else change', async () => {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO audit_entries (account_id, at, actor_kind, actor, client_address, action, outcome)
     VALUES ('acct_A', now(), 'operator', 'root', 'host', 'operator.accounts.suspend', 'started') RETURNING id::text`,
  );
  const id = rows[0]!.id;
  await expect(pool.query(`UPDATE audit_entries SET actor = 'someone else' WHERE id = $1`, [id])).rejects.toThrow(/append-only/);
  await pool.query(`UPDATE audit_entries SET outcome = 'done', completed_at = now() WHERE id = $1`, [id]);
  await expect(pool.query(`UPDATE audit_entries SET outcome = 'refused' WHERE id = $1`, [id])).rejects.toThrow(/append-only/);
  await expect(pool.query(`DELETE FROM audit_entries WHERE id = $1`, [id])).rejects.toThrow(/append-only/);
  // A line written done in one step can never change either.
  const done = await pool.query<{ id: string }>(
    `INSERT INTO audit_entries (account_id, at, actor_kind, actor, client_address, action, outcome)
     VALUES ('acct_A', now(), 'user', 'ann', '127.0.0.1', 'export.payments', 'done') RETURNING id::text`,
  );
  await expect(pool.query(`UPDATE audit_entries SET outcome = 'refused' WHERE id = $1`, [done.rows[0]!.id])).rejects.toThrow(/append-only/);
});
