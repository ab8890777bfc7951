// Risk covered: a role that the pages restrict but the server does not (a forged post by a viewer
// changing the payout wallet), an action added without a role check, a removed user whose browser
// stays signed in, and actions nobody can trace (docs/adr/0055, 0056). Every change the dashboard
// offers is posted by every role, straight to the server as a script would; the audit log must show
// each one, done or refused. Real platform, dashboard and Chromium.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type PublicCallContext } from '@hc/grpc';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';
import { ACTION_ROUTES, may, ROLES, type Role } from '@hc/dashboard';
import {
  PASSWORD,
  docScreenshot,
  seriousViolations,
  startDashboardHarness,
  walk,
  type DashboardHarness,
  type DashboardMerchant,
} from './dashboard-harness.ts';

const THIEF_WALLET = '0x6666666666666666666666666666666666666666';
let h: DashboardHarness;
let owner: DashboardMerchant;
let users: ReturnType<typeof createServiceClient<typeof DashboardUsersService, PublicCallContext>>;
beforeAll(async () => {
  h = await startDashboardHarness('roles');
  users = createServiceClient<typeof DashboardUsersService, PublicCallContext>(DashboardUsersService, h.dashboard.grpcAddress, {
    timeoutMs: 30_000,
  });
  owner = await h.merchant();
}, 120_000);
afterAll(async () => {
  users?.close();
  await h?.stop();
});

let made = 0;
/** A user of the owner's account with the role, made as `operator users create --role` does. */
async function teammate(role: Role): Promise<{ email: string; password: string }> {
  const email = `${role}-${(made += 1)}-${Date.now()}@shop.example`;
  await users.createUser({ accountId: owner.accountId, email, password: PASSWORD, role }, { requestId: 'req_test' });
  return { email, password: PASSWORD };
}

/** A signed-in browser as a script sees it: the session cookie and the CSRF token of its pages. */
interface Client {
  cookie: string;
  csrf: string;
}

async function signIn(user: { email: string; password: string }): Promise<Client> {
  const answer = await fetch(`${h.url}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: h.url },
    body: new URLSearchParams({ email: user.email, password: user.password, next: '/dashboard/test/settings' }),
  });
  expect(answer.status).toBe(303);
  const cookie = answer.headers.getSetCookie()[0]!.split(';')[0]!;
  const page = await (await fetch(`${h.url}/dashboard/test/settings`, { headers: { cookie } })).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
  return { cookie, csrf };
}

/** A form posted to the server directly (same origin, the session's token), as a forged request would be. */
async function post(client: Client, path: string, fields: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const answer = await fetch(`${h.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: h.url, cookie: client.cookie },
    body: new URLSearchParams({ _csrf: client.csrf, ...fields }),
  });
  return { status: answer.status, body: await answer.text() };
}

const ROLE_REFUSAL = /Not allowed for your role/;

/** Repeats `read` until `done` says yes (an audit line is written once its answer is complete), 5 s at most. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('roles on the server', () => {
  it('every change is refused to the roles the table leaves out, and reaches the route for the others', async () => {
    for (const role of ROLES) {
      const client = await signIn(role === 'owner' ? owner : await teammate(role));
      for (const route of ACTION_ROUTES.filter((r) => r.method === 'POST')) {
        const path = route.path.replace(':mode', 'test').replace(':id', 'zz_unknown');
        const answer = await post(client, path);
        const label = `${role} POST ${path} (${route.action})`;
        if (may(role, route.action))
          expect({ label, refusedForRole: ROLE_REFUSAL.test(answer.body) }).toEqual({ label, refusedForRole: false });
        else
          expect({ label, status: answer.status, refusedForRole: ROLE_REFUSAL.test(answer.body) }).toEqual({
            label,
            status: 403,
            refusedForRole: true,
          });
      }
      for (const route of ACTION_ROUTES.filter((r) => r.method === 'GET')) {
        const path = route.path.replace(':mode', 'test').replace(':id', 'zz_unknown');
        const answer = await fetch(`${h.url}${path}`, { headers: { cookie: client.cookie } });
        const refusedForRole = ROLE_REFUSAL.test(await answer.text());
        expect({ role, path, refusedForRole }).toEqual({ role, path, refusedForRole: !may(role, route.action) });
      }
    }
    // A change the table does not know is nobody's, not everybody's.
    const ownerClient = await signIn(owner);
    expect((await post(ownerClient, '/dashboard/test/settings/something-new')).status).toBe(403);
  }, 180_000);

  it('a viewer sees no wallet form, and a forged post with the right password leaves the wallet as it was; the log shows it refused', async () => {
    const viewer = await teammate('viewer');
    const before = (await h.platform.operations.getAccount(owner.accountId)).payoutWallet;
    const page = await h.signedIn(viewer, { viewport: { width: 1280, height: 900 } });
    await walk('viewer-wallet', page, async () => {
      // A viewer reads the Overview (the home) like every role (docs/adr/0058).
      expect(new URL(page.url()).pathname).toBe('/dashboard/test/overview');
      expect(await page.getByRole('heading', { name: 'Overview', level: 1 }).count()).toBe(1);
      await page.goto('/dashboard/test/settings');
      await expect(page.getByText('Only an owner or an admin of the account can change the payout wallet.').isVisible()).resolves.toBe(
        true,
      );
      expect(await page.getByRole('button', { name: 'Save wallet' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
    });
    const forged = await post(await signIn(viewer), '/dashboard/test/settings/payout-wallet', {
      payout_wallet: THIEF_WALLET,
      password: PASSWORD,
    });
    expect(forged.status).toBe(403);
    expect((await h.platform.operations.getAccount(owner.accountId)).payoutWallet).toBe(before);

    const ownerPage = await h.signedIn(owner, { viewport: { width: 1280, height: 900 } });
    await walk('audit-refused', ownerPage, async () => {
      const rows = await eventually(
        async () => {
          await ownerPage.goto(`/dashboard/test/audit?action=payout_wallet.change&actor=${encodeURIComponent(viewer.email)}`);
          return ownerPage.getByRole('row').count();
        },
        (count) => count > 1,
      );
      expect(rows).toBeGreaterThan(1);
      const row = ownerPage.getByRole('row').nth(1);
      await expect(row.textContent()).resolves.toMatch(/refused \(403\)/);
      expect(await seriousViolations(ownerPage)).toEqual([]);
    });

    // The owner's own change is done, with the address before and after (never the password).
    const NEW_WALLET = '0x7777777777777777777777777777777777777777';
    const saved = await post(await signIn(owner), '/dashboard/test/settings/payout-wallet', {
      payout_wallet: NEW_WALLET,
      password: PASSWORD,
    });
    expect(saved.status).toBe(303);
    const line = await eventually(
      async () => {
        await ownerPage.goto(`/dashboard/test/audit?action=payout_wallet.change&outcome=done`);
        return (await ownerPage.getByRole('table').count()) ? ((await ownerPage.getByRole('row').nth(1).textContent()) ?? '') : '';
      },
      (text) => text !== '',
    );
    expect(line).toContain(`${before ?? '—'} → ${NEW_WALLET}`);
    expect(line).not.toContain(PASSWORD);
  }, 90_000);

  it('the owner invites with a link shown once, changes a role and removes a user, whose browser is signed out at once; the log has each step', async () => {
    const developer = await teammate('developer');
    const devPage = await h.signedIn(developer);
    const page = await h.signedIn(owner, { viewport: { width: 1280, height: 900 } });
    const invitee = `invitee-${Date.now()}@shop.example`;
    await walk('team', page, async () => {
      await page.goto('/dashboard/test/team');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Email').fill(invitee);
      await page.getByLabel('Role', { exact: true }).selectOption('developer');
      await page.getByRole('button', { name: 'Invite' }).click();
      await expect(page.locator('#invite-link').textContent()).resolves.toMatch(/\/dashboard\/set-password\?token=/);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('link', { name: 'Back to the team' }).click();
      await page.waitForLoadState('load');
      await expect(page.getByRole('cell', { name: invitee, exact: true }).isVisible()).resolves.toBe(true);

      await page.getByLabel(`Role of ${developer.email}`).selectOption('viewer');
      await page.getByRole('button', { name: `Save role of ${developer.email}` }).click();
      await expect(page.getByRole('status').textContent()).resolves.toContain(`${developer.email} is now viewer.`);
      await docScreenshot(page, 'dashboard-team');

      await page.getByRole('link', { name: `Remove ${developer.email}` }).click();
      await page.getByRole('button', { name: 'Remove user' }).click();
      await expect(page.getByRole('status').textContent()).resolves.toContain('their sessions have ended');
    });
    await walk('removed-user', devPage, async () => {
      await devPage.goto('/dashboard/test/payments');
      await devPage.waitForURL(/\/dashboard\/sign-in/);
    });
    await walk('audit-team', page, async () => {
      const rows = await eventually(
        async () => {
          await page.goto('/dashboard/test/audit?action=team.');
          return page.getByRole('row').count();
        },
        (count) => count >= 4,
      );
      expect(rows).toBeGreaterThanOrEqual(4);
      const log = (await page.getByRole('table').textContent()) ?? '';
      expect(log).toContain('team.remove');
      expect(log).toContain('viewer → —');
      expect(log).toContain('developer → viewer');
      expect(log).toContain(invitee);
      // The one-time link is never in the log.
      expect(log).not.toMatch(/token=/);
      await docScreenshot(page, 'dashboard-audit');
    });
  }, 120_000);

  it('an operator CLI action on the account is in the log with who ran it', async () => {
    const run = await h.platform.operator('accounts', 'suspend', owner.accountId);
    expect(run.code).toBe(0);
    await h.platform.operator('accounts', 'reactivate', owner.accountId);
    const client = await signIn(owner);
    const text = await (await fetch(`${h.url}/dashboard/test/audit?action=operator.`, { headers: { cookie: client.cookie } })).text();
    expect(text).toContain('operator.accounts.suspend');
    expect(text).toContain('operator.accounts.reactivate');
    expect(text).toContain('(operator)');
    // Each line was written before its command ran and completed after (docs/adr/0060).
    expect(text).not.toContain('started, no outcome recorded');
  }, 60_000);

  it('the operator CLI does nothing when the audit log cannot be written', async () => {
    const address = h.platform.operatorEnv['DASHBOARD_GRPC_ADDRESS']!;
    h.platform.operatorEnv['DASHBOARD_GRPC_ADDRESS'] = '127.0.0.1:1';
    try {
      const run = await h.platform.operator('accounts', 'suspend', owner.accountId);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('nothing was done');
    } finally {
      h.platform.operatorEnv['DASHBOARD_GRPC_ADDRESS'] = address;
    }
    expect((await h.platform.operations.getAccount(owner.accountId)).status).toBe('active');
  }, 60_000);
});
