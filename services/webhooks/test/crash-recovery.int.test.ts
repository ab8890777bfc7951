// Risk covered: losing or doubling webhooks when a process dies — the webhooks service killed
// (SIGKILL) mid-delivery, the checkout outbox relay stopped with events unpublished, and the NATS
// server killed (kill -9; a private server of this test's own, never the shared one). After restarts
// every event is delivered at least once and no evt_ id exists twice.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { CHECKOUT_MIGRATIONS_DIR, startCheckoutService, type RunningCheckoutService } from '@hc/checkout';
import { startCheckoutStack, type CheckoutStack } from '@hc/checkout/testing';
import { DEFAULT_EVENT_RETENTION } from '@hc/events';
import { checkGrpcHealth, createServiceClient, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { WebhooksService } from '@hc/proto/webhooks/v1';
import { loadSettlementConfig, SETTLEMENT_MIGRATIONS_DIR, startSettlementService, type RunningSettlementService } from '@hc/settlement';
import {
  createTestDatabase,
  TEST_SECRETS_ENCRYPTION_KEYS,
  TestClock,
  testNatsPrefix,
  type TestDatabase,
  NOT_RUNNING_ADDRESS,
} from '@hc/test-kit';
import { WEBHOOKS_MIGRATIONS_DIR } from '../src/migrations.ts';
import { createWebhooksPrisma } from '../src/store/prisma.ts';
import { INTERRUPTED_ERROR } from '../src/store/deliveries.ts';
import { freePort, killHard, spawnProcess, waitForPort } from './support/processes.ts';
import { WebhookReceiver } from './support/receiver.ts';
import { FAST_DELIVERY, startWebhooksStack, testScope } from './support/webhooks-stack.ts';

const logger = createLogger('webhooks-crash-test', { level: 'silent' });
const ctx = testScope('acct_C');
const account = { payoutWallet: '0x3333333333333333333333333333333333333333', feeBps: 150 };
const MAIN = join(import.meta.dirname, '..', 'src', 'main.ts');

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  await receiver.stop();
});

async function paidPayments(checkout: ServiceClient<typeof CheckoutService>, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const { payment } = await checkout.createCheckoutSession(
      { amount: '12.00', currency: 'USD', description: 'Crash', customerEmail: 'c@d.io', account },
      ctx,
    );
    await checkout.startCheckoutSession({ id: payment!.id, account }, ctx);
    await checkout.simulatePayment({ id: payment!.id, outcome: 'paid' }, ctx);
    ids.push(payment!.id);
  }
  return ids;
}

/** Every stored event reached the receiver at least once, verified, and no evt_ id or source event is stored twice. */
async function expectDeliveredOnce(databaseUrl: string, path: string, expectedEvents: number): Promise<void> {
  const prisma = createWebhooksPrisma(databaseUrl);
  try {
    const deadline = Date.now() + 20_000;
    while ((await prisma.webhookEvent.count()) < expectedEvents && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const events = await prisma.webhookEvent.findMany({ select: { id: true, sourceMsgId: true } });
    expect(events).toHaveLength(expectedEvents);
    expect(new Set(events.map((e) => e.sourceMsgId)).size).toBe(expectedEvents);
    await receiver.waitFor(() => new Set(receiver.at(path).map((d) => d.body.id)).size >= expectedEvents, 20_000);
    const received = receiver.at(path);
    expect(new Set(received.map((d) => d.body.id))).toEqual(new Set(events.map((e) => e.id)));
    expect(received.every((d) => d.verifiedBy.length === 1 && d.headers['webhook-id'] === d.body.id)).toBe(true);
  } finally {
    await prisma.$disconnect();
  }
}

describe('the webhooks service killed mid-delivery', () => {
  let stack: CheckoutStack;
  let database: TestDatabase;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    stack = await startCheckoutStack(logger, { label: 'webhooks_crash' });
    database = await createTestDatabase('webhooks', WEBHOOKS_MIGRATIONS_DIR);
  });
  afterAll(async () => {
    if (child) await killHard(child);
    await stack.stop();
    await database.drop();
  });

  it('resumes from PostgreSQL after SIGKILL: every event delivered, none made twice', async () => {
    const port = await freePort();
    const address = `127.0.0.1:${port}`;
    const env = {
      ...process.env,
      ...FAST_DELIVERY,
      WEBHOOKS_DATABASE_URL: database.url,
      WEBHOOKS_GRPC_ADDRESS: address,
      NATS_URL: stack.natsUrl,
      NATS_SUBJECT_PREFIX: stack.natsPrefix,
      SECRETS_ENCRYPTION_KEYS: TEST_SECRETS_ENCRYPTION_KEYS,
      WEBHOOKS_LEASE: '1500ms',
    };
    const startChild = async (): Promise<ChildProcess> => {
      const started = spawnProcess(process.execPath, [MAIN], env);
      const deadline = Date.now() + 15_000;
      for (;;) {
        try {
          await checkGrpcHealth(address, 500);
          return started;
        } catch (error) {
          if (Date.now() > deadline || started.exitCode !== null) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };
    child = await startChild();
    const webhooks = createServiceClient(WebhooksService, address);
    const { secret } = await webhooks.createEndpoint({ url: receiver.url('/crash') }, ctx);
    webhooks.close();
    receiver.trust(secret);
    // Slow answers keep attempts in flight when the kill comes.
    receiver.respond('/crash', () => ({ status: 200, delayMs: 300 }));

    const checkout = createServiceClient(CheckoutService, stack.checkout.address);
    await paidPayments(checkout, 6);
    checkout.close();
    await receiver.waitFor(() => receiver.at('/crash').length >= 3);
    await killHard(child);
    child = await startChild();

    await expectDeliveredOnce(database.url, '/crash', 12);
    const prisma = createWebhooksPrisma(database.url);
    const deadline = Date.now() + 10_000;
    while ((await prisma.webhookDelivery.count({ where: { status: { not: 'succeeded' } } })) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await prisma.webhookDelivery.count({ where: { status: { not: 'succeeded' } } })).toBe(0);
    // Attempts cut short by the kill are in the log, and were made again.
    expect(await prisma.deliveryAttempt.count({ where: { error: INTERRUPTED_ERROR } })).toBeGreaterThanOrEqual(1);
    await prisma.$disconnect();
  });
});

describe('the NATS server and the checkout outbox relay killed', () => {
  const natsBinary = '/usr/sbin/nats-server';
  let storeDir: string;
  let natsPort: number;
  let nats: ChildProcess | undefined;
  let databases: TestDatabase[] = [];
  let settlement: RunningSettlementService;
  let checkout: RunningCheckoutService | undefined;
  const clock = new TestClock();

  const startNats = async (): Promise<ChildProcess> => {
    const server = spawnProcess(natsBinary, ['-js', '-sd', storeDir, '-a', '127.0.0.1', '-p', String(natsPort)]);
    await waitForPort(natsPort);
    return server;
  };
  const startCheckout = (): Promise<RunningCheckoutService> =>
    startCheckoutService(
      {
        CHECKOUT_DATABASE_URL: databases[0]!.url,
        CHECKOUT_GRPC_ADDRESS: '127.0.0.1:0',
        PUBLIC_BASE_URL: 'https://pay.example.test',
        SETTLEMENT_GRPC_ADDRESS: settlement.address,
        SETTLEMENT_TIMEOUT_MS: 5000,
        // No buyer pages here: nothing reads accounts from the gateway's admin listener (ADR 0037).
        ACCOUNTS_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
        ACCOUNTS_TIMEOUT_MS: 5000,
        NATS_URL: `nats://127.0.0.1:${natsPort}`,
        NATS_SUBJECT_PREFIX: prefix,
        EXPIRY_SWEEP_INTERVAL_MS: 300_000,
        LOG_LEVEL: 'silent',
        ...DEFAULT_EVENT_RETENTION,
      },
      logger,
      { now: clock.now },
    );
  const prefix = testNatsPrefix('webhooks_nats');

  beforeAll(async () => {
    storeDir = mkdtempSync(join(tmpdir(), 'hc-webhooks-nats-'));
    natsPort = await freePort();
    nats = await startNats();
    databases = await Promise.all([
      createTestDatabase('checkout', CHECKOUT_MIGRATIONS_DIR),
      createTestDatabase('settlement', SETTLEMENT_MIGRATIONS_DIR),
    ]);
    settlement = await startSettlementService(
      loadSettlementConfig({
        // One machine with the emulator: its published notice secret (docs/adr/0016).
        SETTLEMENT_LOCAL_MODE: 'true',
        SETTLEMENT_DATABASE_URL: databases[1]!.url,
        SETTLEMENT_GRPC_ADDRESS: '127.0.0.1:0',
        SETTLEMENT_NOTICES_ADDRESS: '127.0.0.1:0',
        LOG_LEVEL: 'silent',
      }),
      logger,
      { now: clock.now },
    );
  });
  afterAll(async () => {
    await checkout?.stop();
    await settlement.stop();
    if (nats) await killHard(nats);
    await Promise.all(databases.map((db) => db.drop()));
    rmSync(storeDir, { recursive: true, force: true });
  });

  it('delivers events published after NATS and the relay come back, each evt_ id once', async () => {
    checkout = await startCheckout();
    const webhooks = await startWebhooksStack(logger, prefix, {}, { natsUrl: `nats://127.0.0.1:${natsPort}` });
    try {
      const { secret } = await webhooks.client.createEndpoint({ url: receiver.url('/nats') }, ctx);
      receiver.trust(secret);
      let client = createServiceClient(CheckoutService, checkout.address);
      await paidPayments(client, 2);
      await receiver.waitFor(() => new Set(receiver.at('/nats').map((d) => d.body.id)).size >= 4);

      await killHard(nats!);
      // Payments go on while NATS is down: their events wait in checkout's outbox.
      await paidPayments(client, 2);
      client.close();
      const unpublished = async (): Promise<number> => {
        const db = new pg.Client({ connectionString: databases[0]!.url });
        await db.connect();
        try {
          return Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM outbox_messages WHERE published_at IS NULL')).rows[0]!.n);
        } finally {
          await db.end();
        }
      };
      expect(await unpublished()).toBeGreaterThanOrEqual(4);
      // The relay stops with events unpublished (its connection to NATS is gone, so do not wait on a drain).
      await Promise.race([checkout.stop(), new Promise((resolve) => setTimeout(resolve, 3000))]);
      checkout = undefined;

      nats = await startNats();
      checkout = await startCheckout();
      client = createServiceClient(CheckoutService, checkout.address);
      await paidPayments(client, 1);
      client.close();
      await expectDeliveredOnce(webhooks.database.url, '/nats', 10);
      expect(await unpublished()).toBe(0);
    } finally {
      await webhooks.stop();
    }
  });
});
