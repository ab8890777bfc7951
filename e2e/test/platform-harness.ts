/**
 * The platform for end-to-end tests: the real settlement, checkout and customers gRPC services
 * (webhooks when asked for), NATS, and the real gateway, each with a database of this test file's
 * own, talking over real gRPC and real HTTP on free local ports.
 * Merchants and keys are made through the same operations the operator CLI uses.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createLogger } from '@hc/logging';
import { createTestDatabase, TEST_SECRETS_ENCRYPTION_KEYS, type TestClock, NOT_RUNNING_ADDRESS } from '@hc/test-kit';
import { startCheckoutStack, type CheckoutStack } from '@hc/checkout/testing';
import { CUSTOMERS_MIGRATIONS_DIR, loadCustomersConfig, startCustomersService, type RunningCustomersService } from '@hc/customers';
import { loadWebhooksConfig, startWebhooksService, WEBHOOKS_MIGRATIONS_DIR, type RunningWebhooksService } from '@hc/webhooks';
import {
  loadNotificationsConfig,
  NOTIFICATIONS_MIGRATIONS_DIR,
  startNotificationsService,
  type RunningNotificationsService,
} from '@hc/notifications';
import { startMailSink, type MailSink } from '@hc/test-kit/mail';
import type { AccountVerbs } from '@hc/accounts';
import { GATEWAY_MIGRATIONS_DIR, startGateway, type GatewayConfig, type RunningGateway } from '@hc/gateway';
import { startAuditDashboard, type AuditDashboard } from './audit-dashboard.ts';
import { checkContract } from './contract.ts';

export const PUBLIC_BASE_URL = 'https://pay.example.test';

export interface TestMerchant {
  accountId: string;
  testKey: string;
  liveKey: string;
}

export interface Platform {
  /** Gateway base URL, e.g. http://127.0.0.1:39211 */
  readonly url: string;
  /** The clock of checkout and settlement: move it to test expiry without waiting. */
  readonly clock: TestClock;
  /** The services behind the gateway (database URLs, NATS stream, use-case dependencies). */
  readonly stack: CheckoutStack;
  /** The customers service (its database URL for reading the store directly, restartable). */
  readonly customers: CustomersHandle;
  /** The webhooks service, when the platform was started with `webhooks: true`. */
  readonly webhooks: { readonly address: string; readonly databaseUrl: string } | undefined;
  /** The notifications service and the real SMTP server it mails, when started with `notifications: true`. */
  readonly notifications: { readonly address: string; readonly databaseUrl: string; readonly sink: MailSink } | undefined;
  /** Every line every in-process service logged (when started with `captureLogs`), JSON lines. */
  logs(): string;
  /** The gateway's own database (idempotency records, rate-limit windows). */
  readonly gatewayDatabaseUrl: string;
  /** The accounts service (merchant accounts and keys): its gRPC address and its database. */
  readonly accountsAddress: string;
  readonly accountsDatabaseUrl: string;
  /** The configuration the in-process gateway runs with (to start a second one like it). */
  readonly gatewayConfig: GatewayConfig;
  /** Extra variables for operator() runs (e.g. where the dashboard's internal listener is). */
  readonly operatorEnv: Record<string, string>;
  /** Account and key operations, as the operator CLI does them. */
  readonly operations: AccountVerbs;
  /** A new active merchant with a Test and a Live key (and a payout wallet unless told otherwise). */
  merchant(options?: { payoutWallet?: string | null }): Promise<TestMerchant>;
  /**
   * Runs the operator CLI as a real process against this platform (its database and every service's
   * address), with `--json`; a non-zero exit is returned, not thrown.
   */
  operator(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** fetch against the gateway with a bearer key; `body` objects are sent as JSON. */
  request(
    method: string,
    path: string,
    options?: { key?: string | undefined; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  stop(): Promise<void>;
}

export interface CustomersHandle {
  readonly address: string;
  readonly databaseUrl: string;
  /** Stops the service (its consumer stops mid-stream) and starts it again on the same port. */
  restart(): Promise<void>;
  /** Stops applying checkout events while reads are still served (the projection falls behind). */
  pauseConsumer(): Promise<void>;
  resumeConsumer(): Promise<void>;
}

export const WALLET = '0x2222222222222222222222222222222222222222';

const runFile = promisify(execFile);
const OPERATOR = fileURLToPath(new URL('../../tools/operator/src/operator.ts', import.meta.url));

/**
 * Gateway settings for end-to-end tests: limits high enough that a test file's hundreds of requests
 * never meet them (rate-limit tests set their own), and a short idempotency lock.
 */
export function testGatewayConfig(
  overrides: Partial<GatewayConfig> & Pick<GatewayConfig, 'GATEWAY_DATABASE_URL' | 'CHECKOUT_GRPC_ADDRESS' | 'ACCOUNTS_GRPC_ADDRESS'>,
): GatewayConfig {
  return {
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: 0,
    // Nothing listens there: tests that need these services start them and override the address.
    CUSTOMERS_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
    WEBHOOKS_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
    GRPC_TIMEOUT_MS: 5000,
    CHECKOUT_GROUPED_CALLS: 1,
    CHECKOUT_GROUPED_CALL_STALL_MS: 100,
    RATE_LIMIT_REQUESTS_PER_MINUTE: 1_000_000,
    RATE_LIMIT_STARTS_PER_MINUTE: 1_000_000,
    RATE_LIMIT_LISTEN_PER_MINUTE: 1_000_000,
    IDEMPOTENCY_LOCK_MS: 5000,
    IDEMPOTENCY_WAIT_MS: 5000,
    // Longer than production's 2 s: a shared 2-core machine under a full test run can lag that much.
    CUSTOMERS_READ_WAIT_MS: 5000,
    LOG_LEVEL: 'silent',
    ...overrides,
  };
}

/**
 * Webhook delivery settings for end-to-end tests: endpoints on this machine allowed (the receiver
 * listens on 127.0.0.1) and a short retry schedule, so no test waits on real back-off. The poll is
 * the default (1 s): new events and resends wake the worker, and so do its own retries when due.
 */
const TEST_WEBHOOKS_ENV = {
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
  SECRETS_ENCRYPTION_KEYS: TEST_SECRETS_ENCRYPTION_KEYS,
  WEBHOOKS_RETRY_SCHEDULE: '0s,100ms,100ms',
  WEBHOOKS_DELIVERY_TIMEOUT: '1s',
  LOG_LEVEL: 'silent',
};

export async function startPlatform(
  options: {
    gateway?: Partial<GatewayConfig>;
    /** The webhooks service; an object also overrides its settings (e.g. a longer WEBHOOKS_DELIVERY_TIMEOUT). */
    webhooks?: boolean | Record<string, string>;
    /**
     * The notifications service and a mail sink. `dashboardGrpcAddress`: where the dashboard will
     * listen, for the Test receipt rule (only the account's users); without it Test receipts go to any
     * address, as under ./scripts/start.
     */
    notifications?: boolean | { dashboardGrpcAddress: string };
    captureLogs?: boolean;
    /** Where session urls point (default PUBLIC_BASE_URL): a pages server's address for browser walks. */
    publicBaseUrl?: string;
  } = {},
): Promise<Platform> {
  // Every service runs in this process on this one logger: captured, the run's whole log can be read.
  const lines: string[] = [];
  const logger = options.captureLogs
    ? createLogger('e2e', { level: 'trace', destination: { write: (line: string) => void lines.push(line) } })
    : createLogger('e2e', { level: 'silent' });
  // The stack brings the accounts service (checkout reads accounts there, ADR 0037, 0085); the gateway
  // below authenticates with it, on a database of its own.
  const stack = await startCheckoutStack(logger, { publicBaseUrl: options.publicBaseUrl ?? PUBLIC_BASE_URL, label: 'e2e' });
  const gatewayDb = await createTestDatabase('gateway', GATEWAY_MIGRATIONS_DIR);
  const checkout = stack.checkout;
  const clock = stack.clock;
  const customersDb = await createTestDatabase('customers', CUSTOMERS_MIGRATIONS_DIR);
  const customersConfig = (address: string) =>
    loadCustomersConfig({
      CUSTOMERS_DATABASE_URL: customersDb.url,
      CUSTOMERS_GRPC_ADDRESS: address,
      NATS_URL: stack.natsUrl,
      NATS_SUBJECT_PREFIX: stack.natsPrefix,
      LOG_LEVEL: 'silent',
    });
  // A short ack wait, as in the customers tests: messages in transit to a stopping service come back
  // within it (reads wait on the consumer's ack floor until they do).
  const customersOptions = { now: clock.now, ackWaitMs: 2_000 };
  let customers: RunningCustomersService = await startCustomersService(customersConfig('127.0.0.1:0'), logger, customersOptions);
  const customersAddress = customers.address;
  const webhooksDb = options.webhooks ? await createTestDatabase('webhooks', WEBHOOKS_MIGRATIONS_DIR) : undefined;
  const webhooks: RunningWebhooksService | undefined = webhooksDb
    ? await startWebhooksService(
        loadWebhooksConfig({
          ...TEST_WEBHOOKS_ENV,
          ...(typeof options.webhooks === 'object' ? options.webhooks : {}),
          WEBHOOKS_DATABASE_URL: webhooksDb.url,
          WEBHOOKS_GRPC_ADDRESS: '127.0.0.1:0',
          NATS_URL: stack.natsUrl,
          NATS_SUBJECT_PREFIX: stack.natsPrefix,
        }),
        logger,
      )
    : undefined;
  const notificationsDb = options.notifications ? await createTestDatabase('notifications', NOTIFICATIONS_MIGRATIONS_DIR) : undefined;
  const sink = notificationsDb ? await startMailSink() : undefined;
  const notifications: RunningNotificationsService | undefined =
    notificationsDb && sink
      ? await startNotificationsService(
          loadNotificationsConfig({
            NOTIFICATIONS_DATABASE_URL: notificationsDb.url,
            NOTIFICATIONS_GRPC_ADDRESS: '127.0.0.1:0',
            NATS_URL: stack.natsUrl,
            NATS_SUBJECT_PREFIX: stack.natsPrefix,
            SMTP_HOST: sink.host,
            SMTP_PORT: String(sink.port),
            SMTP_SECURITY: 'none',
            PUBLIC_BASE_URL: PUBLIC_BASE_URL,
            // Seals invitation links until sent (docs/adr/0059).
            SECRETS_ENCRYPTION_KEYS: TEST_SECRETS_ENCRYPTION_KEYS,
            ...(typeof options.notifications === 'object'
              ? { DASHBOARD_GRPC_ADDRESS: options.notifications.dashboardGrpcAddress }
              : { TEST_RECEIPTS_TO_ANY_ADDRESS: 'true' }),
          }),
          logger,
        )
      : undefined;
  const gatewayConfig = testGatewayConfig({
    GATEWAY_DATABASE_URL: gatewayDb.url,
    CHECKOUT_GRPC_ADDRESS: checkout.address,
    CUSTOMERS_GRPC_ADDRESS: customersAddress,
    ACCOUNTS_GRPC_ADDRESS: stack.accounts.address,
    ...(webhooks ? { WEBHOOKS_GRPC_ADDRESS: webhooks.address } : {}),
    ...options.gateway,
  });
  const gateway: RunningGateway = await startGateway(gatewayConfig, logger, { now: clock.now });
  const operatorEnv: Record<string, string> = {};
  const { operations } = stack.accounts;
  // The operator CLI writes each action to the account's audit log (./audit-dashboard.ts): a platform
  // started without a dashboard gets one on the first operator() run; the dashboard harness sets its own.
  let auditDashboard: Promise<AuditDashboard> | undefined;
  async function dashboardForOperator(): Promise<void> {
    if (operatorEnv['DASHBOARD_GRPC_ADDRESS'] && !auditDashboard) return;
    auditDashboard ??= startAuditDashboard(
      {
        accounts: stack.accounts.address,
        checkout: checkout.address,
        customers: customersAddress,
        ...(webhooks ? { webhooks: webhooks.address } : {}),
      },
      clock.now,
    );
    operatorEnv['DASHBOARD_GRPC_ADDRESS'] = (await auditDashboard).grpcAddress;
  }

  return {
    url: gateway.url,
    clock,
    stack,
    customers: {
      address: customersAddress,
      databaseUrl: customersDb.url,
      async restart() {
        await customers.stop();
        customers = await startCustomersService(customersConfig(customersAddress), logger, customersOptions);
      },
      pauseConsumer: () => customers.pauseConsumer(),
      resumeConsumer: () => customers.resumeConsumer(),
    },
    webhooks: webhooks && webhooksDb ? { address: webhooks.address, databaseUrl: webhooksDb.url } : undefined,
    notifications:
      notifications && notificationsDb && sink ? { address: notifications.address, databaseUrl: notificationsDb.url, sink } : undefined,
    logs: () => lines.join(''),
    gatewayDatabaseUrl: gatewayDb.url,
    gatewayConfig,
    accountsAddress: stack.accounts.address,
    accountsDatabaseUrl: stack.accounts.databaseUrl,
    operatorEnv,
    operations,
    async merchant(options = {}) {
      const wallet = options.payoutWallet === undefined ? WALLET : options.payoutWallet;
      const account = await operations.createAccount({ name: 'Test shop', payoutWallet: wallet ?? undefined });
      const [test, live] = await Promise.all([operations.createKey(account.id, 'test'), operations.createKey(account.id, 'live')]);
      return { accountId: account.id, testKey: test.secret, liveKey: live.secret };
    },
    async operator(...args) {
      await dashboardForOperator();
      const env = {
        ...process.env,
        ACCOUNTS_GRPC_ADDRESS: stack.accounts.address,
        CHECKOUT_GRPC_ADDRESS: checkout.address,
        CUSTOMERS_GRPC_ADDRESS: customersAddress,
        ...(webhooks ? { WEBHOOKS_GRPC_ADDRESS: webhooks.address } : {}),
        EMULATOR_URL: stack.emulator.url,
        LOG_LEVEL: 'silent',
        ...operatorEnv,
      };
      try {
        const { stdout, stderr } = await runFile(process.execPath, [OPERATOR, ...args, '--json'], { env });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const failed = error as { code?: unknown; stdout?: string; stderr?: string };
        if (typeof failed.code !== 'number') throw error;
        return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
      }
    },
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      // Every answer is checked against the OpenAPI document (contract.ts): an undocumented field fails.
      const response = await fetch(`${gateway.url}${path}`, { method, headers, body });
      await checkContract(method, path, response);
      return response;
    },
    async stop() {
      await (await auditDashboard)?.stop();
      await gateway.stop();
      await customers.stop();
      await webhooks?.stop();
      await notifications?.stop();
      await sink?.close();
      await stack.stop();
      await Promise.all([gatewayDb.drop(), customersDb.drop(), webhooksDb?.drop(), notificationsDb?.drop()]);
    },
  };
}
