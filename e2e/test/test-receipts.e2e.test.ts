// Risk covered (issue 47 item 7): a merchant making the platform mail anyone. A Test key can make a
// payment paid with any buyer email and the merchant's own text; with Test receipts on, that was a
// receipt to any address. Now a Test receipt goes only to an address that signs in to the account's
// dashboard (an unused invitation does not count), and one refused is in the mail log with its reason.
// Real platform, the dashboard (asked over its internal gRPC listener), notifications over real SMTP
// to the tests' mail sink, Chromium as the owner.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createServiceClient } from '@hc/grpc';
import { NotificationsService } from '@hc/proto/notifications/v1';
import { eventually } from '@hc/test-kit';
import { apiPayment, startDashboardHarness, walk, type DashboardHarness } from './dashboard-harness.ts';

let h: DashboardHarness;
beforeAll(async () => {
  h = await startDashboardHarness('test-receipts', { notifications: true });
}, 120_000);
afterAll(async () => {
  await h?.stop();
});

it('goes to the account’s own users only: a stranger’s and an invited address’s receipts are canceled with the reason; the owner’s arrives', async () => {
  const owner = await h.merchant();
  const elsewhere = await h.merchant();
  const notifications = createServiceClient(NotificationsService, h.platform.notifications!.address);
  await notifications.updateNotificationSettings(
    { testReceiptsEnabled: true },
    { accountId: owner.accountId, livemode: false, requestId: 'req_e2e' },
  );
  notifications.close();
  const page = await h.signedIn(owner, { viewport: { width: 1280, height: 900 } });
  const invited = `invited-${Date.now()}@shop.example`;
  await page.goto('/dashboard/test/team');
  await page.getByLabel('Email').fill(invited);
  await page.getByRole('button', { name: 'Invite' }).click();
  await page.waitForLoadState('load');

  const stranger = `stranger-${Date.now()}@elsewhere.example`;
  const toStranger = await apiPayment(
    h.platform,
    owner.testKey,
    { customer_email: stranger, description: 'Click here: https://phish.example' },
    'paid',
  );
  const toInvited = await apiPayment(h.platform, owner.testKey, { customer_email: invited }, 'paid');
  // Another account's user is not this account's: no receipt either.
  const toOtherAccount = await apiPayment(h.platform, owner.testKey, { customer_email: elsewhere.email }, 'paid');
  const toOwner = await apiPayment(h.platform, owner.testKey, { customer_email: owner.email.toUpperCase() }, 'paid');

  const sink = h.platform.notifications!.sink;
  const received = await eventually(
    () => Promise.resolve(sink.mails.filter((m) => m.envelopeTo.includes(owner.email))),
    (mails) => mails.length === 1,
    10_000,
  );
  expect(received[0]!.parsed.subject).toMatch(/^\[Test\] Receipt from /);

  await walk('test-receipts-log', page, async () => {
    await page.goto('/dashboard/test/settings/emails');
    const rowOf = async (paymentId: string) =>
      ((await page.getByRole('row').filter({ hasText: paymentId }).textContent()) ?? '').replace(/\s+/g, ' ');
    for (const refused of [toStranger, toInvited, toOtherAccount])
      expect(await rowOf(refused)).toMatch(/canceled.*Test receipts go only to the addresses of this account’s dashboard users/);
    expect(await rowOf(toOwner)).toContain('sent');
  });
  // Canceled rows are never handed to SMTP: the log above was written in the events' own transactions,
  // before the owner's receipt (a later event) was sent.
  const receiptsTo = (address: string) =>
    sink.mails.filter((m) => m.envelopeTo.includes(address) && /Receipt/.test(m.parsed.subject ?? ''));
  for (const address of [stranger, invited, elsewhere.email]) expect(receiptsTo(address)).toEqual([]);
}, 120_000);
