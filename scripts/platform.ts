/**
 * Starts the whole platform on this machine: applies every service's migrations, makes sure a
 * Test-mode demo merchant exists with a fresh key, starts each service and the gateway as child
 * processes, waits until the gateway is ready, and prints (on stdout, once ready):
 *
 *   GATEWAY_URL=http://127.0.0.1:8080
 *   TEST_SECRET_KEY=sk_test_…
 *
 * Service logs go to .platform/logs/<service>.log. Ctrl-C (or SIGTERM) stops everything cleanly.
 * Run it through ./scripts/start, which installs and generates what is needed first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDatabase, migrateDatabase } from '@hc/db';
import { checkGrpcHealth } from '@hc/grpc';
import { CHECKOUT_MIGRATIONS_DIR, loadCheckoutConfig } from '@hc/checkout';
import { CUSTOMERS_MIGRATIONS_DIR, loadCustomersConfig } from '@hc/customers';
import { loadSettlementConfig, SETTLEMENT_MIGRATIONS_DIR } from '@hc/settlement';
import { loadEmulatorConfig } from '@hc/emulator';
import { loadWebhooksConfig, WEBHOOKS_MIGRATIONS_DIR } from '@hc/webhooks';
import { createGatewayPrisma, GATEWAY_MIGRATIONS_DIR, loadGatewayConfig, MerchantOperations, MerchantStore } from '@hc/gateway';

const root = join(import.meta.dirname, '..');
const logDir = join(root, '.platform', 'logs');
const DEMO_ACCOUNT = 'Demo Shop';
const DEMO_KEY_LABEL = 'platform start (demo)';
const DEMO_WALLET = '0x1111111111111111111111111111111111111111';

function say(line: string): void {
  process.stderr.write(`platform: ${line}\n`);
}

const gatewayConfig = loadGatewayConfig();
const gatewayUrl = `http://${gatewayConfig.GATEWAY_HOST}:${gatewayConfig.GATEWAY_PORT}`;
const checkoutConfig = loadCheckoutConfig({ PUBLIC_BASE_URL: gatewayUrl, ...process.env });
const settlementConfig = loadSettlementConfig();
const customersConfig = loadCustomersConfig();
// The Live processor and chain, emulated on this machine (services/emulator); notices go to settlement.
const emulatorConfig = loadEmulatorConfig({
  EMULATOR_NOTICE_URL: `http://${settlementConfig.SETTLEMENT_NOTICES_ADDRESS}/notices`,
  NOTICE_SIGNING_SECRET: settlementConfig.NOTICE_SIGNING_SECRET,
  ...process.env,
});
const emulatorUrl = `http://${emulatorConfig.EMULATOR_HOST}:${emulatorConfig.EMULATOR_PORT}`;
// Local development: webhook endpoints on this machine (http://127.0.0.1:…) are allowed.
const webhooksConfig = loadWebhooksConfig({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', ...process.env });

// 1. Databases and migrations.
for (const [name, url, dir] of [
  ['gateway', gatewayConfig.GATEWAY_DATABASE_URL, GATEWAY_MIGRATIONS_DIR],
  ['checkout', checkoutConfig.CHECKOUT_DATABASE_URL, CHECKOUT_MIGRATIONS_DIR],
  ['settlement', settlementConfig.SETTLEMENT_DATABASE_URL, SETTLEMENT_MIGRATIONS_DIR],
  ['customers', customersConfig.CUSTOMERS_DATABASE_URL, CUSTOMERS_MIGRATIONS_DIR],
  ['webhooks', webhooksConfig.WEBHOOKS_DATABASE_URL, WEBHOOKS_MIGRATIONS_DIR],
] as const) {
  await ensureDatabase(url);
  const applied = await migrateDatabase(url, dir);
  say(`${name} database ${applied.length ? `migrated (${applied.join(', ')})` : 'up to date'}`);
}

// 2. Demo merchant and a fresh Test key (keys are stored hashed, so an old one cannot be shown again;
//    the previous demo keys are revoked so that only the printed one works).
const prisma = createGatewayPrisma(gatewayConfig.GATEWAY_DATABASE_URL);
const operations = new MerchantOperations(new MerchantStore(prisma));
const demo =
  (await operations.listAccounts()).find((a) => a.name === DEMO_ACCOUNT) ??
  (await operations.createAccount({ name: DEMO_ACCOUNT, payoutWallet: DEMO_WALLET }));
if (demo.status !== 'active') await operations.reactivate(demo.id);
for (const key of await operations.listKeys(demo.id)) {
  if (key.label === DEMO_KEY_LABEL && key.revokedAt === null) await operations.revokeKey(key.id);
}
const { secret } = await operations.createKey(demo.id, 'test', DEMO_KEY_LABEL);
await prisma.$disconnect();

// 3. Services, then the gateway.
mkdirSync(logDir, { recursive: true });
const children: { name: string; child: ChildProcess }[] = [];
let stopping = false;

function start(name: string, entry: string, env: Record<string, string>): void {
  const log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, [join(root, entry)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    say(`${name} exited unexpectedly (${signal ?? `code ${code}`}); see .platform/logs/${name}.log`);
    void stopAll(1);
  });
  children.push({ name, child });
}

async function stopAll(exitCode: number): Promise<never> {
  stopping = true;
  say('stopping');
  await Promise.all(
    children.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
        }),
    ),
  );
  process.exit(exitCode);
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

start('emulator', 'services/emulator/src/main.ts', {
  EMULATOR_HOST: emulatorConfig.EMULATOR_HOST,
  EMULATOR_PORT: String(emulatorConfig.EMULATOR_PORT),
  EMULATOR_NOTICE_URL: emulatorConfig.EMULATOR_NOTICE_URL,
  NOTICE_SIGNING_SECRET: emulatorConfig.NOTICE_SIGNING_SECRET,
});
start('settlement', 'services/settlement/src/main.ts', {
  SETTLEMENT_DATABASE_URL: settlementConfig.SETTLEMENT_DATABASE_URL,
  SETTLEMENT_GRPC_ADDRESS: settlementConfig.SETTLEMENT_GRPC_ADDRESS,
  SETTLEMENT_NOTICES_ADDRESS: settlementConfig.SETTLEMENT_NOTICES_ADDRESS,
  NOTICE_SIGNING_SECRET: settlementConfig.NOTICE_SIGNING_SECRET,
  PROCESSOR_URL: process.env['PROCESSOR_URL'] ?? emulatorUrl,
  CHAIN_RPC_URL: process.env['CHAIN_RPC_URL'] ?? emulatorUrl,
  NATS_URL: settlementConfig.NATS_URL,
});
start('checkout', 'services/checkout/src/main.ts', {
  CHECKOUT_DATABASE_URL: checkoutConfig.CHECKOUT_DATABASE_URL,
  CHECKOUT_GRPC_ADDRESS: checkoutConfig.CHECKOUT_GRPC_ADDRESS,
  PUBLIC_BASE_URL: checkoutConfig.PUBLIC_BASE_URL,
  SETTLEMENT_GRPC_ADDRESS: settlementConfig.SETTLEMENT_GRPC_ADDRESS,
  NATS_URL: checkoutConfig.NATS_URL,
});
start('customers', 'services/customers/src/main.ts', {
  CUSTOMERS_DATABASE_URL: customersConfig.CUSTOMERS_DATABASE_URL,
  CUSTOMERS_GRPC_ADDRESS: customersConfig.CUSTOMERS_GRPC_ADDRESS,
  NATS_URL: customersConfig.NATS_URL,
});
start('webhooks', 'services/webhooks/src/main.ts', {
  WEBHOOKS_DATABASE_URL: webhooksConfig.WEBHOOKS_DATABASE_URL,
  WEBHOOKS_GRPC_ADDRESS: webhooksConfig.WEBHOOKS_GRPC_ADDRESS,
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: String(webhooksConfig.WEBHOOKS_ALLOW_PRIVATE_TARGETS),
  NATS_URL: webhooksConfig.NATS_URL,
});
start('gateway', 'services/gateway/src/main.ts', {
  GATEWAY_DATABASE_URL: gatewayConfig.GATEWAY_DATABASE_URL,
  GATEWAY_HOST: gatewayConfig.GATEWAY_HOST,
  GATEWAY_PORT: String(gatewayConfig.GATEWAY_PORT),
  CHECKOUT_GRPC_ADDRESS: checkoutConfig.CHECKOUT_GRPC_ADDRESS,
  CUSTOMERS_GRPC_ADDRESS: customersConfig.CUSTOMERS_GRPC_ADDRESS,
  WEBHOOKS_GRPC_ADDRESS: webhooksConfig.WEBHOOKS_GRPC_ADDRESS,
});

// 4. Ready when the gateway says its database and every service answer.
const deadline = Date.now() + 60_000;
for (;;) {
  const answers = (address: string) =>
    checkGrpcHealth(address).then(
      () => true,
      () => false,
    );
  const ready =
    (await fetch(`${gatewayUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    )) &&
    (await answers(settlementConfig.SETTLEMENT_GRPC_ADDRESS)) &&
    (await answers(webhooksConfig.WEBHOOKS_GRPC_ADDRESS));
  if (ready) break;
  if (Date.now() > deadline) {
    say('the platform did not become ready within 60 s; see .platform/logs/');
    await stopAll(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}

say(`ready: demo merchant ${demo.id} (Test mode); logs in .platform/logs/; Ctrl-C stops everything`);
process.stdout.write(`GATEWAY_URL=${gatewayUrl}\nTEST_SECRET_KEY=${secret}\n`);
