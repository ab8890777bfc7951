// Risk covered: a buyer's receipt without the shop's brand it set (docs/adr/0096), with a logo address
// a mail client cannot load (relative, or not the pages' immutable one), or a receipt lost or delayed
// because the accounts service that owns the brand does not answer. Real accounts (gRPC, PostgreSQL),
// notifications, NATS and SMTP to a sink read back by mailparser.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ACCOUNTS_MIGRATIONS_DIR, loadAccountsConfig, startAccountsService, type RunningAccountsService } from '@hc/accounts';
import { createServiceClient, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { MerchantAdminService } from '@hc/proto/accounts/v1';
import { createTestDatabase, eventually, NOT_RUNNING_ADDRESS, testNatsPrefix, testNatsUrl, testPng, type TestDatabase } from '@hc/test-kit';
import { startMailSink, type MailSink } from '@hc/test-kit/mail';
import { EventPublisher, scope, startNotificationsStack, type NotificationsStack } from './support/notifications-stack.ts';

const logger = createLogger('notifications-brand-test', { level: 'silent' });
let sink: MailSink;
let accountsDb: TestDatabase;
let accounts: RunningAccountsService;
let admin: ServiceClient<typeof MerchantAdminService>;
let stack: NotificationsStack;
let cut: NotificationsStack;
let publish: EventPublisher;
let cutPublish: EventPublisher;
let accountId: string;
let logoSha256: string;

beforeAll(async () => {
  sink = await startMailSink();
  accountsDb = await createTestDatabase('accounts', ACCOUNTS_MIGRATIONS_DIR);
  const accountsConfig = loadAccountsConfig({
    ACCOUNTS_DATABASE_URL: accountsDb.url,
    ACCOUNTS_GRPC_ADDRESS: '127.0.0.1:0',
    NATS_URL: testNatsUrl(),
    NATS_SUBJECT_PREFIX: testNatsPrefix('brandacc'),
    LOG_LEVEL: 'silent',
  });
  accounts = await startAccountsService(accountsConfig, logger);
  accountId = (await accounts.operations.createAccount({ name: 'Mug & Co' })).id;
  admin = createServiceClient(MerchantAdminService, accounts.address);
  const { brand } = await admin.setBrand(
    { accentColour: '#0a58ca', logo: testPng({ width: 64, height: 16 }), removeLogo: false },
    { accountId, livemode: true, requestId: 'req_brand' },
  );
  logoSha256 = brand!.logoSha256!;
  const prefix = testNatsPrefix('notifbrand');
  publish = await EventPublisher.connect(prefix);
  stack = await startNotificationsStack(logger, sink, prefix, { ACCOUNTS_GRPC_ADDRESS: accounts.address });
  // A second notifications whose accounts address answers nothing, on its own stream prefix.
  const cutPrefix = testNatsPrefix('notifcut');
  cutPublish = await EventPublisher.connect(cutPrefix);
  cut = await startNotificationsStack(logger, sink, cutPrefix, { ACCOUNTS_GRPC_ADDRESS: NOT_RUNNING_ADDRESS });
}, 60_000);

afterAll(async () => {
  await stack.stop();
  await cut.stop();
  await publish.close();
  await cutPublish.close();
  admin.close();
  await accounts.stop();
  await accountsDb.drop();
  await sink.close();
});

const paid = (paymentId: string, email: string) => ({
  accountId,
  cause: 'vrd_1',
  payment: {
    id: paymentId,
    description: 'Blue mug',
    amount: '19.90',
    currency: 'USD',
    customerEmail: email,
    merchantName: 'Mug & Co',
    paidAt: Date.UTC(2026, 10, 25, 1, 25),
  },
});

const htmlTo = async (address: string): Promise<string> => {
  const [mail] = await eventually(
    async () => sink.mails.filter((m) => m.envelopeTo.includes(address)),
    (mails) => mails.length >= 1,
  );
  expect(mail).toBeDefined();
  return typeof mail!.parsed.html === 'string' ? mail!.parsed.html : '';
};

describe("the shop's brand in its buyers' receipts", () => {
  it('a Live receipt shows the logo at its absolute, immutable address on the pages and the link as a button in the accent', async () => {
    await publish.payment('payment.paid', { ...paid('pay_brand', 'ann@example.com'), livemode: true });
    const html = await htmlTo('ann@example.com');
    expect(html).toContain(`<img src="https://pay.example/pay/brand/logo/${logoSha256}.png" alt=""`);
    expect(html).toMatch(/<a href="https:\/\/pay\.example\/pay\/pay_brand" style="[^"]*background:#0a58ca;color:#ffffff/);
  });

  it('with accounts not answering, the receipt still goes, plain', async () => {
    await cut.client.updateNotificationSettings({ testReceiptsEnabled: true }, scope(accountId));
    await cutPublish.payment('payment.paid', paid('pay_plain', 'bob@example.com'));
    const html = await htmlTo('bob@example.com');
    expect(html).toContain('Mug &amp; Co');
    expect(html).not.toContain('/pay/brand/logo/');
    expect(html).toContain('<a href="https://pay.example/pay/pay_plain">');
  });
});
