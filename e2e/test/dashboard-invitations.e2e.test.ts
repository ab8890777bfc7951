// Risk covered: an invitation that never reaches the invited person (issue 32: invites by email through
// the notifications context), a one-time link that works twice, or one kept in clear in a database
// (the dashboard's or the notifications context's) once mailed (docs/adr/0059). Real platform,
// notifications over real SMTP to the tests' mail sink, Chromium as the owner and as the invitee.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { eventually, openTestPool } from '@hc/test-kit';
import type { Page } from 'playwright-core';
import type { ReceivedMail } from '@hc/test-kit/mail';
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

// Issue 47 item 6 (docs/adr/0082): an invitation must not tell the inviter whether the address already
// has a dashboard user elsewhere, and must not hold the address for the account that sent it.

/** Invites through the Team page's form; what the owner is shown (status, heading, the page's words with the address taken out). */
async function invite(page: Page, email: string, role: string): Promise<{ status: number; heading: string; words: string }> {
  await page.goto('/dashboard/test/team');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption(role);
  const answered = page.waitForResponse((r) => r.url().endsWith('/dashboard/test/team/invite'));
  await page.getByRole('button', { name: 'Invite' }).click();
  const response = await answered;
  await page.waitForLoadState('load');
  const heading = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
  const words = ((await page.locator('main').textContent()) ?? '')
    .replaceAll(email, '<address>')
    .replace(/\d{1,2} \w{3} \d{4}, \d{2}:\d{2}/g, '<time>');
  return { status: response.status(), heading, words };
}

async function mailTo(address: string): Promise<ReceivedMail> {
  const sink = h.platform.notifications!.sink;
  const mail = await eventually(
    () => Promise.resolve(sink.mails.find((m) => m.envelopeTo.includes(address))),
    (m) => m !== undefined,
    10_000,
  );
  return mail!;
}

/** The Team page's status and the audit line of each address, as the inviting owner sees them. */
async function seenBy(page: Page, address: string): Promise<{ status: string; audit: string; mailLog: string }> {
  await page.goto('/dashboard/test/team');
  const status = (await page.getByRole('row').filter({ hasText: address }).textContent()) ?? '';
  await page.goto(`/dashboard/test/audit?action=team.invite`);
  const audit = (await page.getByRole('row').filter({ hasText: address }).first().textContent()) ?? '';
  await page.goto('/dashboard/test/settings/emails');
  const mailLog = (await page.getByRole('row').filter({ hasText: address }).first().textContent()) ?? '';
  const blank = (text: string) =>
    text
      .replaceAll(address, '<address>')
      .replace(/\d{1,2} \w{3} \d{4}, \d{2}:\d{2}(:\d{2})?( UTC)?/g, '<time>')
      .replace(/mail_\w+/g, '<id>');
  return { status: blank(status), audit: blank(audit), mailLog: blank(mailLog) };
}

it('inviting an address that signs in to another account looks exactly like inviting a new one; its owner is told by mail, without a link', async () => {
  const inviter = await h.merchant();
  const elsewhere = await h.merchant();
  const fresh = `new-person-${Date.now()}@shop.example`;
  const page = await h.signedIn(inviter, { viewport: { width: 1280, height: 900 } });

  const taken = await invite(page, elsewhere.email, 'viewer');
  const unused = await invite(page, fresh, 'viewer');
  expect(taken).toEqual(unused);
  expect(taken).toMatchObject({ status: 200, heading: 'Invitation emailed' });

  const [tellsOwner, invites] = [await mailTo(elsewhere.email), await mailTo(fresh)];
  // The same subject (the inviter's mail log shows subjects); only the invited person's mail has a link.
  expect(tellsOwner.parsed.subject).toBe(invites.parsed.subject);
  expect(invites.parsed.text).toMatch(/\/dashboard\/set-password\?token=/);
  expect(tellsOwner.parsed.text).not.toMatch(/token=|set-password/);
  expect(tellsOwner.parsed.text).toContain('This address already signs in to a merchant dashboard');
  expect(tellsOwner.parsed.text).toContain('They were not told');

  // The team list, the audit log and the mail log read the same for both.
  await eventually(
    async () => (await seenBy(page, elsewhere.email)).mailLog.includes('sent') && (await seenBy(page, fresh)).mailLog.includes('sent'),
    (sent) => sent,
  );
  const [takenSeen, unusedSeen] = [await seenBy(page, elsewhere.email), await seenBy(page, fresh)];
  expect(takenSeen).toEqual(unusedSeen);
  expect(takenSeen.status).toContain('Invited (link not used yet)');
  expect(takenSeen.audit).toContain('viewer (emailed)');

  // And the address's owner still signs in to their own account.
  await (await h.signedIn(elsewhere)).close();
}, 120_000);

it('an invitation does not claim the address: a second account may invite it too; the first link used wins, the other says so to its holder', async () => {
  const [first, second] = [await h.merchant(), await h.merchant()];
  const person = `wanted-${Date.now()}@shop.example`;
  const [firstOwner, secondOwner] = [await h.signedIn(first), await h.signedIn(second)];
  expect(await invite(firstOwner, person, 'developer')).toMatchObject({ status: 200, heading: 'Invitation emailed' });
  expect(await invite(secondOwner, person, 'viewer')).toMatchObject({ status: 200, heading: 'Invitation emailed' });

  const sink = h.platform.notifications!.sink;
  const links = await eventually(
    () => Promise.resolve(sink.mails.filter((m) => m.envelopeTo.includes(person))),
    (mails) => mails.length === 2,
    10_000,
  );
  const pathOf = (mail: ReceivedMail, invitedBy: string) => {
    expect(mail.parsed.subject).toBe(`You are invited to a merchant dashboard by ${invitedBy}`);
    return `/dashboard/set-password?token=${/set-password\?token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '')![1]}`;
  };
  const fromSecond = pathOf(
    links.find((m) => m.parsed.subject?.endsWith(second.email))!,
    second.email,
  );
  const fromFirst = pathOf(
    links.find((m) => m.parsed.subject?.endsWith(first.email))!,
    first.email,
  );

  const browser = await (await h.context()).newPage();
  await browser.goto(fromSecond);
  await browser.getByLabel('New password').fill('a long enough passphrase for tests');
  await browser.getByRole('button', { name: 'Set password' }).click();
  await browser.waitForURL(/\/dashboard\/sign-in\?password-set=1/);

  await browser.goto(fromFirst);
  await browser.getByLabel('New password').fill('another long passphrase for tests');
  const answered = browser.waitForResponse((r) => r.url().endsWith('/dashboard/set-password') && r.request().method() === 'POST');
  await browser.getByRole('button', { name: 'Set password' }).click();
  expect((await answered).status()).toBe(409);
  await expect(browser.getByRole('alert').textContent()).resolves.toContain('already signs in to a merchant dashboard');

  // The person belongs to the second account; the first still shows an invitation, which expires.
  const signedIn = await h.signedIn({ email: person, password: 'a long enough passphrase for tests' });
  await signedIn.goto('/dashboard/test/settings');
  await expect(signedIn.locator('main').textContent()).resolves.toContain(second.accountId);
  await firstOwner.goto('/dashboard/test/team');
  await expect(firstOwner.getByRole('row').filter({ hasText: person }).textContent()).resolves.toContain('Invited');
}, 120_000);
