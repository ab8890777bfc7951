// Risk covered: the hosted page promising a receipt nobody sends (issue 30). On the platform the start
// command runs (tools/platform/src/platform.ts, its own ports, databases, NATS prefix and state folder): the demo
// account's Test payment, paid with the hosted page's Test button, delivers one receipt over SMTP to
// the buyer's address at the local mail catcher within 10 s, and the page's words match; an underpaid
// one delivers one "held" alert to the merchant; with Test receipts turned off the page promises none.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createServiceClient } from '@hc/grpc';
import { NotificationsService } from '@hc/proto/notifications/v1';
import { eventually } from '@hc/test-kit';
import { caughtMails } from '@hc/test-kit/mail';
import {
  killLeftovers,
  platformSetting,
  startPlatform,
  stopPlatform,
  type PlatformSetting,
  type RunningPlatform,
} from '../src/platform-process.ts';

const repository = join(import.meta.dirname, '..', '..', '..');
let home: string;
let setting: PlatformSetting;
let platform: RunningPlatform;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'hc-platform-mail-'));
  setting = await platformSetting('mail');
  platform = await startPlatform(process.execPath, [join(repository, 'tools', 'platform', 'src', 'platform.ts')], {
    cwd: repository,
    env: { ...process.env, ...setting.env, PLATFORM_HOME: home, LOG_LEVEL: 'warn' },
    timeoutMs: 120_000,
  });
}, 150_000);
afterAll(async () => {
  if (platform) await stopPlatform(platform);
  killLeftovers();
  await setting.dropDatabases();
  rmSync(home, { recursive: true, force: true });
});

async function api(path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${platform.printed['GATEWAY_URL']}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${platform.printed['TEST_SECRET_KEY']}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** The hosted page's own form post, as the buyer's browser sends it. */
async function pagePost(path: string, fields: Record<string, string>): Promise<number> {
  const url = String(platform.printed['GATEWAY_URL']);
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Origin: url, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return response.status;
}

const page = async (id: string) => (await fetch(`${platform.printed['GATEWAY_URL']}/pay/${id}`)).text();

it('prints the mail catcher; a Test payment paid on the hosted page delivers one receipt to the buyer within 10 s', async () => {
  const catcher = String(platform.printed['MAIL_CATCHER_URL']);
  expect(catcher).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const session = await api('/v1/checkout_sessions', { amount: '19.9', currency: 'usd', description: 'Blue mug', reference: 'ORD-1001' });
  const id = String(session['id']);
  expect(await page(id)).toContain('We send your receipt here.');
  expect(await pagePost(`/pay/${id}/start`, { email: 'Ann@Example.com', country: 'DE' })).toBe(303);
  const paidAt = Date.now();
  expect(await pagePost(`/pay/${id}/simulate`, { outcome: 'paid' })).toBe(303);
  const mails = await eventually(
    async () => (await caughtMails(catcher)).filter((m) => m.envelopeTo.includes('ann@example.com')),
    (found) => found.length >= 1,
  );
  expect(Date.now() - paidAt).toBeLessThan(10_000);
  expect(mails).toHaveLength(1);
  const receipt = mails[0]!.parsed;
  expect(receipt.subject).toMatch(/^\[Test\] Receipt from .+: \$19\.90$/);
  expect(receipt.text).toContain(id);
  expect(receipt.text).toContain('ORD-1001');
  expect(receipt.text).toContain(`${platform.printed['GATEWAY_URL']}/pay/${id}`);
  expect(await page(id)).toContain('Receipt sent to');
});

it('an underpayment delivers one held alert to the merchant', async () => {
  const catcher = String(platform.printed['MAIL_CATCHER_URL']);
  const session = await api('/v1/checkout_sessions', {
    amount: '25.00',
    currency: 'eur',
    description: 'Kettle',
    customer_email: 'kim@example.com',
  });
  const id = String(session['id']);
  await api(`/v1/checkout_sessions/${id}/start`, {});
  await api(`/v1/payments/${id}/simulate`, { outcome: 'underpaid' });
  const alerts = await eventually(
    async () => (await caughtMails(catcher)).filter((m) => m.parsed.subject?.includes(`Payment held`) && m.parsed.subject.includes(id)),
    (found) => found.length >= 1,
  );
  expect(alerts).toHaveLength(1);
  expect(alerts[0]!.envelopeTo).toEqual(['alerts@demo-shop.localhost']);
  expect(alerts[0]!.parsed.text).toContain(`/dashboard/test/payments/${id}`);
  expect((await caughtMails(catcher)).filter((m) => m.envelopeTo.includes('kim@example.com'))).toHaveLength(0);
});

it('with Test receipts off, the page promises none', async () => {
  const client = createServiceClient(NotificationsService, String(setting.env['NOTIFICATIONS_GRPC_ADDRESS']));
  try {
    await client.updateNotificationSettings(
      { testReceiptsEnabled: false },
      { accountId: String(platform.printed['DEMO_ACCOUNT_ID']), livemode: false, requestId: 'req_test' },
    );
  } finally {
    client.close();
  }
  const session = await api('/v1/checkout_sessions', { amount: '5.00', currency: 'usd', description: 'Tea' });
  expect(await page(String(session['id']))).not.toContain('receipt');
});
