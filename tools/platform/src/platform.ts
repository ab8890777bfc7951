/**
 * Starts the whole platform on this machine: applies every service's migrations, makes sure a
 * Test-mode demo merchant exists with its Test key (the same key as last time, kept in .local/;
 * --roll-demo-key makes a new one and revokes the old), starts each service and the gateway as child
 * processes, waits until the gateway is ready, and prints (on stdout, once ready):
 *
 *   GATEWAY_URL=http://127.0.0.1:8080
 *   TEST_SECRET_KEY=sk_test_…
 *   DEMO_ACCOUNT_ID=acct_…
 *
 * Addresses, ports and databases come from the services' environment variables (README,
 * Configuration); while it runs, .local/platform.env tells ./scripts/operator where they are. The key
 * that encrypts webhook signing secrets and two-factor seeds at rest is made once and kept, with the
 * demo key, in the local state database beside the data (SECRETS_ENCRYPTION_KEYS in the environment
 * wins; docs/adr/0042, docs/adr/0083), so another clone or worktree on the same databases starts too;
 * --reset-local-data drops this platform's databases first.
 * Service logs go to .platform/logs/<service>.log. A service that crashes is restarted with backoff;
 * one that keeps crashing is reported with its log's end and the platform stops (tools/platform/src/supervisor.ts).
 * Ctrl-C (or SIGTERM) stops everything cleanly.
 * Run it through ./scripts/start, which installs and generates what is needed first.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkGrpcHealth } from '@hc/grpc';
import { CHECKOUT_MIGRATIONS_DIR, loadCheckoutConfig } from '@hc/checkout';
import { CUSTOMERS_MIGRATIONS_DIR, loadCustomersConfig } from '@hc/customers';
import { loadSettlementConfig, publishedSecretWarning, SETTLEMENT_MIGRATIONS_DIR } from '@hc/settlement';
import { loadEmulatorConfig } from '@hc/emulator';
import { loadWebhooksConfig, WEBHOOKS_MIGRATIONS_DIR } from '@hc/webhooks';
import { ACCOUNTS_MIGRATIONS_DIR, importAccountsFromGateway, loadAccountsConfig, openAccountsOperator } from '@hc/accounts';
import { GATEWAY_MIGRATIONS_DIR, loadGatewayConfig } from '@hc/gateway';
import { loadPagesConfig } from '@hc/pages';
import { DASHBOARD_MIGRATIONS_DIR, loadDashboardConfig } from '@hc/dashboard';
import { loadNotificationsConfig, NOTIFICATIONS_MIGRATIONS_DIR } from '@hc/notifications';
import { ensureDemoNotifications } from './demo-notifications.ts';
import { startFrontRouter } from './front-router.ts';
import { ensureDemoMerchant, keptInLocalState, type DemoMerchant } from './demo-merchant.ts';
import { missingKeyAdvice, prepareLocalData } from './local-data.ts';
import { databaseScope, stateDatabaseUrl } from './local-state.ts';
import { localStatementKeys } from './local-statement-key.ts';
import { planReplicas, replicatedNames } from './replicas.ts';
import { Supervisor } from './supervisor.ts';

const root = join(import.meta.dirname, '..', '..', '..');
// Loaded before each service (OpenTelemetry's ESM hook must come first); it does nothing unless OTEL_* asks.
const TELEMETRY = join(root, 'packages/telemetry/src/register.ts');
// PLATFORM_HOME moves the logs and the local state elsewhere (tests run a platform of their own).
const home = process.env['PLATFORM_HOME'] ?? root;
const logDir = join(home, '.platform', 'logs');
// The clone's own state (git-ignored): where the platform runs. What belongs to the data (the demo
// key's secret, the encryption key of secrets at rest) is kept in the local state database beside it
// (local-state.ts); files an older start left here are taken over from.
const stateDir = join(home, '.local');
const addressesFile = join(stateDir, 'platform.env');
const { values: flags } = parseArgs({
  options: { 'roll-demo-key': { type: 'boolean', default: false }, 'reset-local-data': { type: 'boolean', default: false } },
});

function say(line: string): void {
  process.stderr.write(`platform: ${line}\n`);
}

const gatewayConfig = loadGatewayConfig();
// The one public address (PUBLIC_BASE_URL) for merchants and buyers: the front router listens on
// GATEWAY_HOST:GATEWAY_PORT and sends /pay/* to the hosted pages and the rest to the gateway, which
// listen on the next two ports (docs/adr/0014).
const gatewayUrl = `http://${gatewayConfig.GATEWAY_HOST}:${gatewayConfig.GATEWAY_PORT}`;
const gatewayBackendPort = Number(process.env['PLATFORM_GATEWAY_BACKEND_PORT'] ?? gatewayConfig.GATEWAY_PORT + 1);
// The second gateway's, when PLATFORM_REPLICAS names the gateway (below).
const gateway2Port = Number(process.env['PLATFORM_GATEWAY_2_PORT'] ?? gatewayConfig.GATEWAY_PORT + 4);
const pagesConfig = loadPagesConfig({ PAGES_PORT: String(gatewayConfig.GATEWAY_PORT + 2), PAGES_TRUST_PROXY_HOPS: '1', ...process.env });
const checkoutConfig = loadCheckoutConfig({ PUBLIC_BASE_URL: gatewayUrl, ...process.env });
// Local mode: settlement and the emulator share the emulator's published notice secret unless
// NOTICE_SIGNING_SECRET says otherwise; outside local mode settlement refuses that secret (docs/adr/0016).
const settlementConfig = loadSettlementConfig({ SETTLEMENT_LOCAL_MODE: 'true', ...process.env });
const customersConfig = loadCustomersConfig();
// The Live processor and chain, emulated on this machine (services/emulator); notices go to settlement.
const emulatorConfig = loadEmulatorConfig({
  EMULATOR_NOTICE_URL: `http://${settlementConfig.SETTLEMENT_NOTICES_ADDRESS}/notices`,
  NOTICE_SIGNING_SECRET: settlementConfig.NOTICE_SIGNING_SECRET,
  ...process.env,
});
const emulatorUrl = `http://${emulatorConfig.EMULATOR_HOST}:${emulatorConfig.EMULATOR_PORT}`;
// The merchant dashboard (/dashboard behind the front router), on plain http locally: its cookies
// cannot be Secure here. The accounts service is its path to accounts and keys, checkout's and
// settlement's to the account a buyer pays, and the gateway's key directory (docs/adr/0037, 0085).
const accountsConfig = loadAccountsConfig();
const dashboardConfig = loadDashboardConfig({
  DASHBOARD_PORT: String(gatewayConfig.GATEWAY_PORT + 3),
  DASHBOARD_TRUST_PROXY_HOPS: '1',
  DASHBOARD_SECURE_COOKIES: 'false',
  PUBLIC_BASE_URL: gatewayUrl,
  ACCOUNTS_GRPC_ADDRESS: accountsConfig.ACCOUNTS_GRPC_ADDRESS,
  ...process.env,
});
// Local development: webhook endpoints on this machine (http://127.0.0.1:…) are allowed.
const webhooksConfig = loadWebhooksConfig({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', ...process.env });
// Mail goes to a local catcher (maildev: an SMTP server with a page to read what was sent), never out.
const mailCatcher = {
  smtpPort: Number(process.env['MAIL_CATCHER_SMTP_PORT'] ?? 1025),
  webPort: Number(process.env['MAIL_CATCHER_WEB_PORT'] ?? 1080),
};
const mailCatcherUrl = `http://127.0.0.1:${mailCatcher.webPort}`;
const notificationsConfig = loadNotificationsConfig({
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: String(mailCatcher.smtpPort),
  SMTP_SECURITY: 'none',
  PUBLIC_BASE_URL: gatewayUrl,
  ...process.env,
});

// 1. Databases and migrations (after dropping them all with --reset-local-data).
const databases = [
  { service: 'gateway', url: gatewayConfig.GATEWAY_DATABASE_URL, migrations: GATEWAY_MIGRATIONS_DIR },
  { service: 'accounts', url: accountsConfig.ACCOUNTS_DATABASE_URL, migrations: ACCOUNTS_MIGRATIONS_DIR },
  { service: 'checkout', url: checkoutConfig.CHECKOUT_DATABASE_URL, migrations: CHECKOUT_MIGRATIONS_DIR },
  { service: 'settlement', url: settlementConfig.SETTLEMENT_DATABASE_URL, migrations: SETTLEMENT_MIGRATIONS_DIR },
  { service: 'customers', url: customersConfig.CUSTOMERS_DATABASE_URL, migrations: CUSTOMERS_MIGRATIONS_DIR },
  { service: 'webhooks', url: webhooksConfig.WEBHOOKS_DATABASE_URL, migrations: WEBHOOKS_MIGRATIONS_DIR },
  { service: 'dashboard', url: dashboardConfig.DASHBOARD_DATABASE_URL, migrations: DASHBOARD_MIGRATIONS_DIR },
  { service: 'notifications', url: notificationsConfig.NOTIFICATIONS_DATABASE_URL, migrations: NOTIFICATIONS_MIGRATIONS_DIR },
];
// The local state database (docs/adr/0083): the cluster's keyring, the demo key; then the databases.
const { state, encryption } = await prepareLocalData({
  databases,
  stateUrl: stateDatabaseUrl(process.env, gatewayConfig.GATEWAY_DATABASE_URL),
  stateDir,
  reset: flags['reset-local-data'],
  say,
});

// The key that signs settlement statements, kept beside the data too (docs/adr/0088).
const statementKeys = await localStatementKeys(state);
say(
  `statement signing key ${statementKeys.keyId}: ${{ environment: 'from STATEMENT_SIGNING_KEY', kept: 'kept', new: 'new, kept' }[statementKeys.origin]}` +
    `${statementKeys.origin === 'environment' ? '' : ` in the local state database (${databaseScope(state.url)})`}; published at ${gatewayUrl}/.well-known/hc-statement-keys.json`,
);

// Local data of a start before the accounts context (docs/adr/0086): the gateway's accounts and keys
// move into accounts' database (idempotent, so every start runs it), and the demo key still works.
const moved = await importAccountsFromGateway(accountsConfig.ACCOUNTS_DATABASE_URL, gatewayConfig.GATEWAY_DATABASE_URL);
if (moved.accounts + moved.keys + moved.revocations > 0)
  say(`accounts: ${moved.accounts} accounts and ${moved.keys} keys moved from the gateway's database`);

// 2. Services, then the gateway.
mkdirSync(logDir, { recursive: true });
const supervisor = new Supervisor({
  root,
  logDir,
  say,
  onGiveUp: () => void stopAll(1),
  nodeArgs: ['--import', TELEMETRY],
  // Secrets sealed with a key this start does not have: say which and what to do, at once.
  diagnose: (name, log) => missingKeyAdvice(name, log, encryption.origin === 'environment' ? 'environment' : 'local'),
});
let stopped: Promise<never> | undefined;

// PLATFORM_REPLICAS=checkout,webhooks,…: a second copy of each named service, its gRPC clients given
// both copies (tools/platform/src/replicas.ts). A second gateway listens on PLATFORM_GATEWAY_2_PORT
// (GATEWAY_PORT + 4 unless set) and the front router turns the API's requests over both, as the Ingress
// does over the gateway's pods.
const replicas = await planReplicas(replicatedNames(process.env));

/** Starts a service as a supervised child process: restarted with backoff when it crashes (tools/platform/src/supervisor.ts). */
function start(name: string, entry: string, given: Record<string, string>, copyEnv: Record<string, string> = {}): void {
  const env = replicas.clientEnv(name, given);
  supervisor.start(name, entry, env);
  if (replicas.has(name)) supervisor.start(`${name}-2`, entry, { ...replicas.copyEnv(name, env), ...copyEnv });
}

/** Stops every process once (a second Ctrl-C waits for the first stop) and exits. */
function stopAll(exitCode: number): Promise<never> {
  stopped ??= (async () => {
    say('stopping');
    rmSync(addressesFile, { force: true });
    await supervisor.stopAll();
    await state.close();
    process.exit(exitCode);
  })();
  return stopped;
}

/**
 * The demo merchant through the accounts service, once it answers (it was just started): the key kept
 * in the local state database under the gateway database's scope, as before the accounts context,
 * so an existing clone's demo key stays the same (docs/adr/0083, 0086).
 */
async function demoMerchant(): Promise<DemoMerchant> {
  const deadline = Date.now() + 60_000;
  while (
    !(await checkGrpcHealth(accountsConfig.ACCOUNTS_GRPC_ADDRESS).then(
      () => true,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) {
      say('the accounts service did not answer within 60 s; see .platform/logs/accounts.log');
      return stopAll(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const operations = openAccountsOperator(accountsConfig.ACCOUNTS_GRPC_ADDRESS, 15_000);
  try {
    const keyStore = keptInLocalState(state, databaseScope(gatewayConfig.GATEWAY_DATABASE_URL), join(stateDir, 'demo-merchant.json'));
    return await ensureDemoMerchant(operations, keyStore, { roll: flags['roll-demo-key'] });
  } finally {
    operations.close();
  }
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

start('emulator', 'services/emulator/src/main.ts', {
  EMULATOR_HOST: emulatorConfig.EMULATOR_HOST,
  EMULATOR_PORT: String(emulatorConfig.EMULATOR_PORT),
  EMULATOR_NOTICE_URL: emulatorConfig.EMULATOR_NOTICE_URL,
  NOTICE_SIGNING_SECRET: emulatorConfig.NOTICE_SIGNING_SECRET,
});
start('accounts', 'services/accounts/src/main.ts', {
  ACCOUNTS_DATABASE_URL: accountsConfig.ACCOUNTS_DATABASE_URL,
  ACCOUNTS_GRPC_ADDRESS: accountsConfig.ACCOUNTS_GRPC_ADDRESS,
  NATS_URL: accountsConfig.NATS_URL,
});
// 3. Demo merchant and its Test key (the one printed last time, by any clone, unless rolled or gone),
// made through the accounts service as the operator would.
const demo = await demoMerchant();
const keyNews = { kept: 'the same Test key as last time', new: 'a new Test key', rolled: 'a new Test key; the previous one is revoked' };
say(`demo merchant ${demo.accountId}: ${keyNews[demo.key]} (./scripts/start --roll-demo-key makes a new one)`);

start('settlement', 'services/settlement/src/main.ts', {
  SETTLEMENT_DATABASE_URL: settlementConfig.SETTLEMENT_DATABASE_URL,
  SETTLEMENT_GRPC_ADDRESS: settlementConfig.SETTLEMENT_GRPC_ADDRESS,
  SETTLEMENT_NOTICES_ADDRESS: settlementConfig.SETTLEMENT_NOTICES_ADDRESS,
  NOTICE_SIGNING_SECRET: settlementConfig.NOTICE_SIGNING_SECRET,
  SETTLEMENT_LOCAL_MODE: String(settlementConfig.SETTLEMENT_LOCAL_MODE),
  PROCESSOR_URL: process.env['PROCESSOR_URL'] ?? emulatorUrl,
  CHAIN_RPC_URL: process.env['CHAIN_RPC_URL'] ?? emulatorUrl,
  // A Live transfer is forwarded to the account's wallet as accounts has it then (docs/adr/0081).
  ACCOUNTS_GRPC_ADDRESS: accountsConfig.ACCOUNTS_GRPC_ADDRESS,
  NATS_URL: settlementConfig.NATS_URL,
});
const publishedSecret = publishedSecretWarning(settlementConfig);
if (publishedSecret) say(`WARNING: ${publishedSecret}`);
start('checkout', 'services/checkout/src/main.ts', {
  CHECKOUT_DATABASE_URL: checkoutConfig.CHECKOUT_DATABASE_URL,
  CHECKOUT_GRPC_ADDRESS: checkoutConfig.CHECKOUT_GRPC_ADDRESS,
  PUBLIC_BASE_URL: checkoutConfig.PUBLIC_BASE_URL,
  SETTLEMENT_GRPC_ADDRESS: settlementConfig.SETTLEMENT_GRPC_ADDRESS,
  // Buyers' payments read the account's current wallet, fee and status there (docs/adr/0037).
  ACCOUNTS_GRPC_ADDRESS: accountsConfig.ACCOUNTS_GRPC_ADDRESS,
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
  SECRETS_ENCRYPTION_KEYS: encryption.keys,
});
start('mail-catcher', 'node_modules/maildev/dist/bin/maildev.js', {
  MAILDEV_SMTP_PORT: String(mailCatcher.smtpPort),
  MAILDEV_WEB_PORT: String(mailCatcher.webPort),
  MAILDEV_IP: '127.0.0.1',
  MAILDEV_WEB_IP: '127.0.0.1',
});
start('notifications', 'services/notifications/src/main.ts', {
  NOTIFICATIONS_DATABASE_URL: notificationsConfig.NOTIFICATIONS_DATABASE_URL,
  NOTIFICATIONS_GRPC_ADDRESS: notificationsConfig.NOTIFICATIONS_GRPC_ADDRESS,
  NATS_URL: notificationsConfig.NATS_URL,
  SMTP_HOST: notificationsConfig.SMTP_HOST,
  SMTP_PORT: String(notificationsConfig.SMTP_PORT),
  SMTP_SECURITY: notificationsConfig.SMTP_SECURITY,
  PUBLIC_BASE_URL: notificationsConfig.PUBLIC_BASE_URL,
  // The shop's logo and accent in its receipts (docs/adr/0096).
  ACCOUNTS_GRPC_ADDRESS: accountsConfig.ACCOUNTS_GRPC_ADDRESS,
  // Seals dashboard invitation links until they are mailed (docs/adr/0059).
  SECRETS_ENCRYPTION_KEYS: encryption.keys,
  // Local only: every mail lands in the catcher, so the demo's Test receipts may go to whatever the
  // buyer types on the hosted page; a deployment sends them only to the account's users (docs/notifications.md).
  TEST_RECEIPTS_TO_ANY_ADDRESS: 'true',
});
start(
  'gateway',
  'services/gateway/src/main.ts',
  {
    GATEWAY_DATABASE_URL: gatewayConfig.GATEWAY_DATABASE_URL,
    GATEWAY_HOST: gatewayConfig.GATEWAY_HOST,
    GATEWAY_PORT: String(gatewayBackendPort),
    CHECKOUT_GRPC_ADDRESS: checkoutConfig.CHECKOUT_GRPC_ADDRESS,
    CUSTOMERS_GRPC_ADDRESS: customersConfig.CUSTOMERS_GRPC_ADDRESS,
    WEBHOOKS_GRPC_ADDRESS: webhooksConfig.WEBHOOKS_GRPC_ADDRESS,
    ACCOUNTS_GRPC_ADDRESS: accountsConfig.ACCOUNTS_GRPC_ADDRESS,
  },
  { GATEWAY_PORT: String(gateway2Port) },
);

start('dashboard', 'services/dashboard/src/main.ts', {
  DASHBOARD_DATABASE_URL: dashboardConfig.DASHBOARD_DATABASE_URL,
  DASHBOARD_HOST: dashboardConfig.DASHBOARD_HOST,
  DASHBOARD_PORT: String(dashboardConfig.DASHBOARD_PORT),
  DASHBOARD_GRPC_ADDRESS: dashboardConfig.DASHBOARD_GRPC_ADDRESS,
  DASHBOARD_TRUST_PROXY_HOPS: String(dashboardConfig.DASHBOARD_TRUST_PROXY_HOPS),
  DASHBOARD_SECURE_COOKIES: String(dashboardConfig.DASHBOARD_SECURE_COOKIES),
  PUBLIC_BASE_URL: dashboardConfig.PUBLIC_BASE_URL,
  ACCOUNTS_GRPC_ADDRESS: accountsConfig.ACCOUNTS_GRPC_ADDRESS,
  CHECKOUT_GRPC_ADDRESS: checkoutConfig.CHECKOUT_GRPC_ADDRESS,
  CUSTOMERS_GRPC_ADDRESS: customersConfig.CUSTOMERS_GRPC_ADDRESS,
  WEBHOOKS_GRPC_ADDRESS: webhooksConfig.WEBHOOKS_GRPC_ADDRESS,
  NOTIFICATIONS_GRPC_ADDRESS: notificationsConfig.NOTIFICATIONS_GRPC_ADDRESS,
  SECRETS_ENCRYPTION_KEYS: encryption.keys,
  STATEMENT_SIGNING_KEY: statementKeys.signingKey,
  STATEMENT_PUBLIC_KEYSET: statementKeys.publicKeys,
});

// Hosted pages (/pay/*) and the front router that puts them and the gateway behind one address.
start('pages', 'services/pages/src/main.ts', {
  PAGES_HOST: pagesConfig.PAGES_HOST,
  PAGES_PORT: String(pagesConfig.PAGES_PORT),
  PAGES_TRUST_PROXY_HOPS: String(pagesConfig.PAGES_TRUST_PROXY_HOPS),
  CHECKOUT_GRPC_ADDRESS: checkoutConfig.CHECKOUT_GRPC_ADDRESS,
  // Whether a paid payment gets a receipt, so the page promises only what is sent.
  NOTIFICATIONS_GRPC_ADDRESS: notificationsConfig.NOTIFICATIONS_GRPC_ADDRESS,
  // The shop's logo and accent colour on its buyers' pages (docs/adr/0096).
  ACCOUNTS_GRPC_ADDRESS: accountsConfig.ACCOUNTS_GRPC_ADDRESS,
  // Published at /.well-known/hc-statement-keys.json, so anyone can check a statement (docs/adr/0088).
  STATEMENT_PUBLIC_KEYSET: statementKeys.publicKeys,
});
const frontRouter = await startFrontRouter({
  host: gatewayConfig.GATEWAY_HOST,
  port: gatewayConfig.GATEWAY_PORT,
  gatewayUrl: `http://${gatewayConfig.GATEWAY_HOST}:${gatewayBackendPort}`,
  gatewayReplicaUrls: replicas.has('gateway') ? [`http://${gatewayConfig.GATEWAY_HOST}:${gateway2Port}`] : [],
  pagesUrl: `http://${pagesConfig.PAGES_HOST}:${pagesConfig.PAGES_PORT}`,
  dashboardUrl: `http://${dashboardConfig.DASHBOARD_HOST}:${dashboardConfig.DASHBOARD_PORT}`,
});
say(`front router on ${frontRouter.url}: /pay/*, /track/*, /c/* to the pages, /dashboard/* to the dashboard, the rest to the gateway`);

// 4. Ready when the gateway says its database and every service answer. PLATFORM_READY_TIMEOUT_S
// (default 60) gives a slow machine longer; the supervision test needs a crash loop to run its course.
const readySeconds = Number(process.env['PLATFORM_READY_TIMEOUT_S'] ?? '60');
if (!Number.isInteger(readySeconds) || readySeconds <= 0) {
  say(`PLATFORM_READY_TIMEOUT_S must be a whole number of seconds above 0, not ${process.env['PLATFORM_READY_TIMEOUT_S']}`);
  process.exit(2);
}
const deadline = Date.now() + readySeconds * 1000;
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
    (await answers(accountsConfig.ACCOUNTS_GRPC_ADDRESS)) &&
    (await answers(webhooksConfig.WEBHOOKS_GRPC_ADDRESS)) &&
    (await answers(notificationsConfig.NOTIFICATIONS_GRPC_ADDRESS)) &&
    (await fetch(`${mailCatcherUrl}/api/healthz`).then(
      (r) => r.ok,
      () => false,
    )) &&
    (await fetch(`http://${pagesConfig.PAGES_HOST}:${pagesConfig.PAGES_PORT}/readyz`).then(
      (r) => r.ok,
      () => false,
    )) &&
    (await fetch(`http://${dashboardConfig.DASHBOARD_HOST}:${dashboardConfig.DASHBOARD_PORT}/dashboard/readyz`).then(
      (r) => r.ok,
      () => false,
    ));
  if (ready) break;
  if (Date.now() > deadline) {
    say(`the platform did not become ready within ${readySeconds} s; see .platform/logs/`);
    await stopAll(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}

// What ./scripts/operator needs to reach this platform from another shell.
const addresses = {
  ACCOUNTS_GRPC_ADDRESS: accountsConfig.ACCOUNTS_GRPC_ADDRESS,
  CHECKOUT_GRPC_ADDRESS: checkoutConfig.CHECKOUT_GRPC_ADDRESS,
  CUSTOMERS_GRPC_ADDRESS: customersConfig.CUSTOMERS_GRPC_ADDRESS,
  WEBHOOKS_GRPC_ADDRESS: webhooksConfig.WEBHOOKS_GRPC_ADDRESS,
  NOTIFICATIONS_GRPC_ADDRESS: notificationsConfig.NOTIFICATIONS_GRPC_ADDRESS,
  MAIL_CATCHER_URL: mailCatcherUrl,
  // `users create` makes dashboard users through the dashboard's internal listener.
  DASHBOARD_GRPC_ADDRESS: dashboardConfig.DASHBOARD_GRPC_ADDRESS,
  // `emulator pay` (local Live mode) talks to the emulator.
  EMULATOR_URL: emulatorUrl,
};
mkdirSync(stateDir, { recursive: true, mode: 0o700 });
writeFileSync(
  addressesFile,
  Object.entries(addresses)
    .map(([name, value]) => `${name}=${value}\n`)
    .join(''),
);

// The demo account sends Test receipts and alerts (to the catcher) until someone changes its settings.
const demoMail = await ensureDemoNotifications(notificationsConfig.NOTIFICATIONS_GRPC_ADDRESS, demo.accountId, {
  store: state,
  scope: databaseScope(notificationsConfig.NOTIFICATIONS_DATABASE_URL),
  cloneMarkerFile: join(stateDir, 'demo-notifications.json'),
});
if (demoMail) say(`demo merchant: Test receipts on, alerts to ${demoMail} (dashboard Settings changes them)`);
say(`mail catcher: every mail the platform sends is at ${mailCatcherUrl} (SMTP 127.0.0.1:${mailCatcher.smtpPort})`);
say(`ready: demo merchant ${demo.accountId} (Test mode); logs in .platform/logs/; Ctrl-C stops everything`);
process.stdout.write(
  `GATEWAY_URL=${gatewayUrl}\nTEST_SECRET_KEY=${demo.secret}\nMAIL_CATCHER_URL=${mailCatcherUrl}\nDEMO_ACCOUNT_ID=${demo.accountId}\n`,
);
