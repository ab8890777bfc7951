// Risk covered: settlement dying with SIGKILL while it handles a processor notice — between recording
// the notice and publishing its verdict. Settlement runs as a real process with a crash point armed
// (HC_CRASH_POINTS, @hc/runtime), is killed at that exact line, restarted, and the processor redelivers
// the notice as it would (same id). The payment must end right: paid once, one payment.paid, one verdict.
// Real PostgreSQL, NATS, HTTP and gRPC; checkout in this process, the processor emulator in this process.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CHECKOUT_MIGRATIONS_DIR, startCheckoutService, type PaymentEvent, type RunningCheckoutService } from '@hc/checkout';
import { loadEmulatorConfig, payThroughEmulator, signNotice, startEmulator, type NoticeBody, type RunningEmulator } from '@hc/emulator';
import {
  connectNats,
  consumeDurable,
  DEFAULT_EVENT_RETENTION,
  prefixedSubject,
  streamName,
  type DurableConsumer,
  type NatsConnection,
} from '@hc/events';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { SETTLEMENT_MIGRATIONS_DIR } from '@hc/settlement';
import {
  createTestDatabase,
  eventually,
  freePort,
  testNatsPrefix,
  testNatsUrl,
  type TestDatabase,
  NOT_RUNNING_ADDRESS,
} from '@hc/test-kit';
import { PAYMENT_EVENTS_SUBJECTS } from '@hc/events/contracts';

const SETTLEMENT_MAIN = fileURLToPath(new URL('../../services/settlement/src/main.ts', import.meta.url));
// A secret of this run's own, as a deployment has (not local mode: the emulator's published secret would be refused).
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const WALLET = '0x6666666666666666666666666666666666666666';
const account = { payoutWallet: WALLET, feeBps: 150 };
const live: CallContext = { accountId: 'acct_CRASH', livemode: true, requestId: 'req_crash' };
const logger = createLogger('notice-crash-test', { level: 'silent' });

let databases: TestDatabase[];
let emulator: RunningEmulator;
let checkout: RunningCheckoutService;
let client: ServiceClient<typeof CheckoutService>;
let nats: NatsConnection;
let consumer: DurableConsumer;
const events: PaymentEvent[] = [];
const natsUrl = testNatsUrl();
const natsPrefix = testNatsPrefix('crash');
let settlementEnv: NodeJS.ProcessEnv;
let settlement: { child: ChildProcess; output: () => string } | undefined;
let noticesUrl: string;
/** Each payment's notice body, as the processor would redeliver it. */
const bodies = new Map<string, NoticeBody>();

/** Starts settlement as its own process; resolves once its notices listener and gRPC server answer. */
async function startSettlement(crashPoints: string): Promise<void> {
  const child = spawn(process.execPath, [SETTLEMENT_MAIN], {
    env: { ...settlementEnv, HC_CRASH_POINTS: crashPoints },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  settlement = { child, output: () => output };
  await eventually(
    async () => output.includes('settlement gRPC service listening') || child.exitCode !== null,
    (up) => up,
    30_000,
  );
  if (child.exitCode !== null) throw new Error(`settlement exited at start:\n${output}`);
}

/** Resolves with the signal that ended the settlement process. */
function settlementDeath(): Promise<NodeJS.Signals | null> {
  const child = settlement!.child;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
}

async function stopSettlement(): Promise<void> {
  const child = settlement?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const died = settlementDeath();
  child.kill('SIGTERM');
  await died;
}

beforeAll(async () => {
  databases = await Promise.all([
    createTestDatabase('checkout', CHECKOUT_MIGRATIONS_DIR),
    createTestDatabase('settlement', SETTLEMENT_MIGRATIONS_DIR),
  ]);
  const [checkoutDb, settlementDb] = databases as [TestDatabase, TestDatabase];
  emulator = await startEmulator(loadEmulatorConfig({ EMULATOR_PORT: '0', LOG_LEVEL: 'silent' }), logger);
  const [grpcPort, noticesPort] = [await freePort(), await freePort()];
  noticesUrl = `http://127.0.0.1:${noticesPort}/notices`;
  // The emulator only issues addresses and records chain transfers here: the test sends the notices.
  emulator.directNoticesTo('http://127.0.0.1:1/notices');
  settlementEnv = {
    ...process.env,
    SETTLEMENT_DATABASE_URL: settlementDb.url,
    SETTLEMENT_GRPC_ADDRESS: `127.0.0.1:${grpcPort}`,
    SETTLEMENT_NOTICES_ADDRESS: `127.0.0.1:${noticesPort}`,
    PROCESSOR_URL: emulator.url,
    CHAIN_RPC_URL: emulator.url,
    NOTICE_SIGNING_SECRET: SECRET,
    NATS_URL: natsUrl,
    NATS_SUBJECT_PREFIX: natsPrefix,
    LOG_LEVEL: 'info',
  };
  await startSettlement('');
  checkout = await startCheckoutService(
    {
      CHECKOUT_DATABASE_URL: checkoutDb.url,
      CHECKOUT_GRPC_ADDRESS: '127.0.0.1:0',
      PUBLIC_BASE_URL: 'https://pay.example.test',
      SETTLEMENT_GRPC_ADDRESS: `127.0.0.1:${grpcPort}`,
      SETTLEMENT_TIMEOUT_MS: 5000,
      // No buyer pages here: nothing reads accounts from the gateway's admin listener (ADR 0037).
      ACCOUNTS_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
      ACCOUNTS_TIMEOUT_MS: 5000,
      NATS_URL: natsUrl,
      NATS_SUBJECT_PREFIX: natsPrefix,
      EXPIRY_SWEEP_INTERVAL_MS: 300_000,
      LOG_LEVEL: 'silent',
      ...DEFAULT_EVENT_RETENTION,
    },
    logger,
  );
  client = createServiceClient(CheckoutService, checkout.address);
  nats = await connectNats(natsUrl, 'notice-crash-test');
  consumer = await consumeDurable({
    nats,
    stream: streamName(natsPrefix, 'checkout'),
    durable: 'notice_crash_test',
    filterSubject: prefixedSubject(natsPrefix, PAYMENT_EVENTS_SUBJECTS),
    logger,
    handle: async (message) => {
      events.push(message.data as PaymentEvent);
    },
  });
}, 60_000);

afterAll(async () => {
  await consumer?.stop();
  await nats?.drain();
  client?.close();
  await checkout?.stop();
  await stopSettlement();
  await emulator?.stop();
  await Promise.all((databases ?? []).map((db) => db.drop()));
});

async function startedPayment(): Promise<Payment> {
  const { payment } = await client.createCheckoutSession(
    { amount: '21.55', currency: 'USD', description: 'Clock', customerEmail: 'c@example.com', account },
    live,
  );
  return (await client.startCheckoutSession({ id: payment!.id, account }, live)).payment!;
}

/** The buyer pays through the emulator (money on chain, forwarded); the notice is the test's to send. */
async function paidOnChain(p: Payment): Promise<NoticeBody> {
  // No accounts' owner runs here, so settlement cannot name the wallet when the emulator asks where to
  // forward (docs/adr/0081): the emulator forwards to the start's wallet unasked, which settlement judges
  // against the wallet of the start, as a forwarding it was never asked about.
  const paid = await payThroughEmulator(emulator.url, p.id, { amount: '21.55', notice: 'never', forwardTo: WALLET });
  const body: NoticeBody = {
    type: 'transfer.forwarded',
    payment_id: p.id,
    deposit_address: paid.to_address,
    txid_in: paid.txid_in,
    coin: paid.coin,
    value_coin: paid.value_coin,
    forwarded_to: paid.forwarded_to,
    txid_out: paid.txid_out,
    value_forwarded: paid.value_forwarded,
  };
  bodies.set(p.id, body);
  return body;
}

/** Posts the notice; 'no answer' when the connection died with the process. */
async function post(notice: { headers: Record<string, string>; body: string }): Promise<string> {
  try {
    const response = await fetch(noticesUrl, { method: 'POST', headers: notice.headers, body: notice.body });
    return ((await response.json()) as { outcome?: string }).outcome ?? String(response.status);
  } catch {
    return 'no answer';
  }
}

const payment = async (id: string): Promise<Payment> => (await client.getCheckoutSession({ id }, live)).payment!;
const paidEvents = (id: string): string[] => events.filter((e) => e.payment.id === id && e.type === 'payment.paid').map((e) => e.id);

async function verdictLines(id: string): Promise<number> {
  const { entries } = await client.getPaymentTimeline({ id }, live);
  return entries.filter((e) => e.kind === 'verdict').length;
}

describe('settlement killed with SIGKILL while handling a notice', () => {
  it('after recording the notice, before commit: nothing is kept; the redelivered notice pays the payment once', async () => {
    await stopSettlement();
    await startSettlement('settlement.notice.recorded');
    const p = await startedPayment();
    const notice = signNotice(SECRET, await paidOnChain(p), new Date());
    const died = settlementDeath();
    expect(await post(notice)).toBe('no answer');
    expect(await died).toBe('SIGKILL');
    expect((await payment(p.id)).status).toBe('open');

    await startSettlement('');
    // The processor redelivers: same id, fresh signature.
    expect(await post(signNotice(SECRET, bodies.get(p.id)!, new Date(), notice.id))).toBe('verdict');
    const after = await eventually(
      () => payment(p.id),
      (x) => x.status === 'paid',
      20_000,
    );
    expect(after.merchantReceived).toBe('21.226750');
    await eventually(
      async () => paidEvents(p.id),
      (ids) => ids.length > 0,
    );
    expect(paidEvents(p.id)).toHaveLength(1);
    expect(await verdictLines(p.id)).toBe(1);
  });

  it('after commit, before the verdict is published or answered: the restart publishes it; the redelivery changes nothing', async () => {
    await stopSettlement();
    await startSettlement('settlement.notice.committed');
    const p = await startedPayment();
    const notice = signNotice(SECRET, await paidOnChain(p), new Date());
    const died = settlementDeath();
    expect(await post(notice)).toBe('no answer');
    expect(await died).toBe('SIGKILL');

    await startSettlement('');
    expect(await post(signNotice(SECRET, bodies.get(p.id)!, new Date(), notice.id))).toBe('replayed');
    await eventually(
      () => payment(p.id),
      (x) => x.status === 'paid',
      20_000,
    );
    await eventually(
      async () => paidEvents(p.id),
      (ids) => ids.length > 0,
    );
    // Give a second payment.paid every chance to show up before asserting there is none.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(paidEvents(p.id)).toHaveLength(1);
    expect(await verdictLines(p.id)).toBe(1);
    expect((await payment(p.id)).merchantReceived).toBe('21.226750');
  });
});
