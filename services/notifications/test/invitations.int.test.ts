// Risk covered: a dashboard invitation whose one-time link sits in clear in this service's database
// (or stays there after it is sent), a repeated call mailing twice, a link to anywhere but a dashboard's
// set-password page, and a mail given up that keeps its link (docs/adr/0059). Real PostgreSQL, real SMTP.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { eventually, testNatsPrefix } from '@hc/test-kit';
import { startMailSink, type MailSink } from '@hc/test-kit/mail';
import { scope, startNotificationsStack, type NotificationsStack } from './support/notifications-stack.ts';

const logger = createLogger('notifications-test', { level: 'silent' });
let sink: MailSink;
let stack: NotificationsStack;

beforeAll(async () => {
  sink = await startMailSink();
  stack = await startNotificationsStack(logger, sink, testNatsPrefix('notif_invite'));
});
afterAll(async () => {
  await stack.stop();
  await sink.close();
});

const TOKEN = 'tOkEn_0123456789abcdefghijklmnopqrstuvwxyzAB';
const invitation = (id: string, recipient: string, token = TOKEN) => ({
  invitationId: id,
  recipient,
  role: 'developer',
  invitedBy: 'owner@shop.example',
  link: `http://127.0.0.1:8080/dashboard/set-password?token=${token}`,
  expires: BigInt(Math.floor(Date.now() / 1000) + 86_400),
});
const row = async (mailId: string) =>
  (await stack.db.query('SELECT * FROM mails WHERE id = $1', [mailId])).rows[0] as Record<string, unknown> & { status: string };

it('mails the link once, keeps it only sealed until sent, and a repeated call queues nothing more', async () => {
  const first = await stack.client.sendInvitation(invitation('dashuser_1:abc', 'Dev@Shop.Example'), scope('acct_I'));
  const again = await stack.client.sendInvitation(invitation('dashuser_1:abc', 'Dev@Shop.Example'), scope('acct_I'));
  expect(again.mailId).toBe(first.mailId);

  const mail = await eventually(
    () => Promise.resolve(sink.mails.find((m) => m.envelopeTo.includes('dev@shop.example'))),
    (m) => m !== undefined,
  );
  expect(mail!.parsed.text).toContain(`/dashboard/set-password?token=${TOKEN}`);
  expect(String(mail!.parsed.html)).toContain(`href="http://127.0.0.1:8080/dashboard/set-password?token=${TOKEN}"`);
  expect(mail!.parsed.subject).toBe('You are invited to a merchant dashboard by owner@shop.example');
  expect(mail!.parsed.text).toContain('as developer');

  const sent = await eventually(
    () => row(first.mailId),
    (r) => r.status === 'sent',
  );
  // Nothing in the row holds the token: the bodies have the placeholder, the sealed link is gone.
  expect(JSON.stringify(sent)).not.toContain(TOKEN);
  expect(sent['sealed_link']).toBeNull();
  expect(sent['text_body']).toContain('[[one-time-link]]');
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(sink.mails.filter((m) => m.envelopeTo.includes('dev@shop.example'))).toHaveLength(1);
  // The log lists it as an invitation, without the link.
  const log = await stack.client.listMails({}, scope('acct_I'));
  expect(log.mails.map((m) => [m.kind, m.status, m.recipient])).toEqual([['invitation', 'sent', 'dev@shop.example']]);
});

it('while queued, the link is sealed to its row; a mail refused for good drops it', async () => {
  sink.behave({ kind: 'permanent' });
  try {
    const { mailId } = await stack.client.sendInvitation(
      invitation('dashuser_2:def', 'refused@shop.example', `x${TOKEN}`),
      scope('acct_I'),
    );
    const queued = await row(mailId);
    if (queued.status !== 'failed') {
      expect(String(queued['sealed_link'])).toMatch(/^v1:test-1:/);
      expect(JSON.stringify(queued)).not.toContain(TOKEN);
    }
    const failed = await eventually(
      () => row(mailId),
      (r) => r.status === 'failed',
    );
    expect(failed['sealed_link']).toBeNull();
    expect(JSON.stringify(failed)).not.toContain(TOKEN);
  } finally {
    sink.behave({ kind: 'accept' });
  }
});

it('refuses a link that is not a dashboard set-password link, and a role the dashboard does not have', async () => {
  await expect(
    stack.client.sendInvitation(
      { ...invitation('dashuser_3:x', 'a@shop.example'), link: 'https://evil.example/phish?token=abcdefghijklmnopqrstuvwxyz' },
      scope('acct_I'),
    ),
  ).rejects.toMatchObject({ code: 'invalid_url', field: 'link' });
  await expect(
    stack.client.sendInvitation({ ...invitation('dashuser_3:y', 'a@shop.example'), role: 'root' }, scope('acct_I')),
  ).rejects.toThrow(/role/);
  expect((await stack.db.query(`SELECT count(*)::int AS n FROM mails WHERE dedupe_key LIKE 'invitation:dashuser_3%'`)).rows[0].n).toBe(0);
});
