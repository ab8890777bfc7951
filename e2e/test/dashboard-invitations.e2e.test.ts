// Risk covered: an invitation that never reaches the invited person (issue 32: invites by email through
// the notifications context), a one-time link that works twice, or one kept in clear in a database
// (the dashboard's or the notifications context's) once mailed (docs/adr/0059). Real platform,
// notifications over real SMTP to the tests' mail sink, Chromium as the owner and as the invitee.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { eventually, openTestPool } from '@hc/test-kit';
import { seriousViolations, startDashboardHarness, walk, type DashboardHarness } from './dashboard-harness.ts';

let h: DashboardHarness;
beforeAll(async () => {
  h = await startDashboardHarness('invitations', { notifications: true });
}, 120_000);
afterAll(async () => {
  await h?.stop();
});

/** Every text column of every row of a database, as one string (to look for a secret anywhere in it). */
async function everything(url: string, tables: readonly string[]): Promise<string> {
  const pool = openTestPool(url, 1);
  try {
    const dumps = await Promise.all(tables.map(async (table) => JSON.stringify((await pool.query(`SELECT * FROM ${table}`)).rows)));
    return dumps.join('\n');
  } finally {
    await pool.end();
  }
}

it('the owner invites by email: the mail reaches the SMTP server with a link that works once; no database keeps it in clear', async () => {
  const owner = await h.merchant();
  const sink = h.platform.notifications!.sink;
  const invitee = `invited-${Date.now()}@shop.example`;
  const page = await h.signedIn(owner, { viewport: { width: 1280, height: 900 } });
  await walk('invite-by-email', page, async () => {
    await page.goto('/dashboard/test/team');
    await page.getByLabel('Email').fill(invitee);
    await page.getByLabel('Role', { exact: true }).selectOption('developer');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.waitForLoadState('load');
    await expect(page.getByRole('heading', { name: 'Invitation emailed', level: 1 }).isVisible()).resolves.toBe(true);
    // Mailed, so not shown: the owner never holds the link.
    expect(await page.locator('#invite-link').count()).toBe(0);
    expect(await page.content()).not.toMatch(/token=/);
    expect(await seriousViolations(page)).toEqual([]);
  });

  const mail = await eventually(
    () => Promise.resolve(sink.mails.find((m) => m.envelopeTo.includes(invitee))),
    (m) => m !== undefined,
    10_000,
  );
  expect(mail!.parsed.subject).toBe(`You are invited to a merchant dashboard by ${owner.email}`);
  const link = /https?:\/\/\S+\/dashboard\/set-password\?token=([A-Za-z0-9_-]+)/.exec(mail!.parsed.text ?? '');
  expect(link).not.toBeNull();
  const token = link![1]!;
  // The link points at the dashboard's public address; the test's dashboard listens on its own port.
  const path = `/dashboard/set-password?token=${token}`;

  const invited = await (await h.context()).newPage();
  await walk('invitee-sets-password', invited, async () => {
    await invited.goto(path);
    await expect(invited.getByRole('heading', { name: 'Set your password' }).isVisible()).resolves.toBe(true);
    await invited.getByLabel('New password').fill('a long enough passphrase for tests');
    await invited.getByRole('button', { name: 'Set password' }).click();
    await invited.waitForURL(/\/dashboard\/sign-in\?password-set=1/);
    // Once only.
    await invited.goto(path);
    await expect(invited.getByRole('heading', { name: 'This link no longer works' }).isVisible()).resolves.toBe(true);
  });
  await walk(
    'invitee-signs-in',
    await h.signedIn({ email: invitee, password: 'a long enough passphrase for tests' }),
    async () => undefined,
  );

  // Sent: the notifications context dropped the sealed link; the dashboard only ever kept its hash.
  await eventually(
    async () => (await everything(h.platform.notifications!.databaseUrl, ['mails'])).includes('"status":"sent"'),
    (sent) => sent,
  );
  expect(await everything(h.platform.notifications!.databaseUrl, ['mails'])).not.toContain(token);
  expect(await everything(h.database.url, ['dashboard_users', 'password_setup_tokens', 'audit_entries'])).not.toContain(token);

  // The owner sees it in the mail log and in the audit log.
  await walk('invitation-logged', page, async () => {
    await page.goto('/dashboard/test/settings/emails');
    const log = (await page.getByRole('table').last().textContent()) ?? '';
    expect(log).toContain(invitee);
    expect(log).toContain('Invitation');
    await page.goto('/dashboard/test/audit?action=team.invite');
    await expect(page.getByRole('table').textContent()).resolves.toContain('developer (emailed)');
  });
}, 120_000);
