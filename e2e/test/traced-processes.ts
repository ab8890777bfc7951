/**
 * The platform as separate, instrumented processes: every service started the way production starts
 * it (`node --import @hc/telemetry/register src/main.ts`), each with its own database of this test
 * file, a NATS prefix of its own, and the standard OTEL_* variables pointing at a test OTLP receiver.
 * What crosses a process boundary here (HTTP, gRPC, the outbox and NATS) is what a trace must survive.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CHECKOUT_MIGRATIONS_DIR } from '@hc/checkout';
import { CUSTOMERS_MIGRATIONS_DIR } from '@hc/customers';
import { SETTLEMENT_MIGRATIONS_DIR } from '@hc/settlement';
import {
  createTestDatabase,
  TEST_SECRETS_ENCRYPTION_KEYS,
  testNatsPrefix,
  testNatsUrl,
  type OtlpReceiver,
  type TestDatabase,
} from '@hc/test-kit';
import { WEBHOOKS_MIGRATIONS_DIR } from '@hc/webhooks';
import { ACCOUNTS_MIGRATIONS_DIR, openAccountsOperator } from '@hc/accounts';
import { GATEWAY_MIGRATIONS_DIR } from '@hc/gateway';
import { startAuditDashboard, type AuditDashboard } from './audit-dashboard.ts';

const REGISTER = fileURLToPath(new URL('../../packages/telemetry/src/register.ts', import.meta.url));
const main = (service: string): string => fileURLToPath(new URL(`../../services/${service}/src/main.ts`, import.meta.url));
const OPERATOR = fileURLToPath(new URL('../../tools/operator/src/operator.ts', import.meta.url));
const runFile = promisify(execFile);

export interface ServiceProcess {
  readonly address: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `services/<service>/src/main.ts` instrumented; resolves with the address its start-up log line names. */
export async function startService(service: string, env: Record<string, string>): Promise<ServiceProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', REGISTER, main(service)], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${service} did not start:\n${output}`)), 30_000);
    const look = (): void => {
      const match = /"(?:address|url)":"([^"]+)"/.exec(output);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve(match[1]);
    };
    child.stdout?.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${service} exited with ${code}:\n${output}`));
    });
  });
  return {
    address,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface TracedPlatform {
  readonly gatewayUrl: string;
  /** Everything each process printed (JSON log lines), by service. */
  output(service: string): string;
  /** A merchant with a Test key, made as the operator CLI makes them. */
  merchant(): Promise<{ accountId: string; testKey: string }>;
  /** Runs the operator CLI (not instrumented) against the platform; its JSON output. */
  operator(...args: string[]): Promise<Record<string, unknown>>;
  /** SIGTERM to every process: each flushes its spans before it exits. */
  stop(): Promise<void>;
}

/** `receiver.env(name)`: the OTEL_* variables of a service (an OTLP receiver's, or a Prometheus endpoint's). */
export async function startTracedPlatform(receiver: Pick<OtlpReceiver, 'env'>): Promise<TracedPlatform> {
  const names = ['gateway', 'checkout', 'settlement', 'customers', 'webhooks', 'accounts'] as const;
  const dirs = {
    gateway: GATEWAY_MIGRATIONS_DIR,
    checkout: CHECKOUT_MIGRATIONS_DIR,
    settlement: SETTLEMENT_MIGRATIONS_DIR,
    customers: CUSTOMERS_MIGRATIONS_DIR,
    webhooks: WEBHOOKS_MIGRATIONS_DIR,
    accounts: ACCOUNTS_MIGRATIONS_DIR,
  };
  const databases = Object.fromEntries(
    await Promise.all(names.map(async (name) => [name, await createTestDatabase(name, dirs[name])] as const)),
  ) as Record<(typeof names)[number], TestDatabase>;
  const nats = { NATS_URL: testNatsUrl(), NATS_SUBJECT_PREFIX: testNatsPrefix('traces') };
  const processes: ServiceProcess[] = [];
  const outputs = new Map<string, () => string>();
  const start = async (name: string, env: Record<string, string>): Promise<string> => {
    const started = await startService(name, { ...receiver.env(`hc-${name}`), ...env });
    processes.push(started);
    outputs.set(name, started.output);
    return started.address;
  };

  const accounts = await start('accounts', {
    ...nats,
    ACCOUNTS_DATABASE_URL: databases.accounts.url,
    ACCOUNTS_GRPC_ADDRESS: '127.0.0.1:0',
  });
  const settlement = await start('settlement', {
    ACCOUNTS_GRPC_ADDRESS: accounts,
    SETTLEMENT_DATABASE_URL: databases.settlement.url,
    SETTLEMENT_GRPC_ADDRESS: '127.0.0.1:0',
    // A free port for the processor's notices, never the default 8091 a local platform may hold.
    SETTLEMENT_NOTICES_ADDRESS: '127.0.0.1:0',
    // One machine with the emulator: its published notice secret, with the warning (docs/adr/0016).
    SETTLEMENT_LOCAL_MODE: 'true',
  });
  const [checkout, customers, webhooks] = await Promise.all([
    start('checkout', {
      ...nats,
      CHECKOUT_DATABASE_URL: databases.checkout.url,
      CHECKOUT_GRPC_ADDRESS: '127.0.0.1:0',
      SETTLEMENT_GRPC_ADDRESS: settlement,
      ACCOUNTS_GRPC_ADDRESS: accounts,
      PUBLIC_BASE_URL: 'https://pay.example.test',
    }),
    start('customers', { ...nats, CUSTOMERS_DATABASE_URL: databases.customers.url, CUSTOMERS_GRPC_ADDRESS: '127.0.0.1:0' }),
    start('webhooks', {
      ...nats,
      WEBHOOKS_DATABASE_URL: databases.webhooks.url,
      WEBHOOKS_GRPC_ADDRESS: '127.0.0.1:0',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOKS_POLL_INTERVAL: '50ms',
      SECRETS_ENCRYPTION_KEYS: TEST_SECRETS_ENCRYPTION_KEYS,
      // Each attempt's log line (debug) is what the trace_id assertion reads.
      LOG_LEVEL: 'debug',
    }),
  ]);
  const addresses = {
    CHECKOUT_GRPC_ADDRESS: checkout,
    CUSTOMERS_GRPC_ADDRESS: customers,
    WEBHOOKS_GRPC_ADDRESS: webhooks,
    ACCOUNTS_GRPC_ADDRESS: accounts,
  };
  let auditDashboard: Promise<AuditDashboard> | undefined;
  const gatewayUrl = await start('gateway', {
    ...addresses,
    GATEWAY_DATABASE_URL: databases.gateway.url,
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: '0',
  });

  return {
    gatewayUrl,
    output: (service) => outputs.get(service)?.() ?? '',
    async merchant() {
      const operations = openAccountsOperator(accounts, 15_000);
      try {
        const account = await operations.createAccount({ name: 'Traced shop', payoutWallet: '0x2222222222222222222222222222222222222222' });
        const key = await operations.createKey(account.id, 'test');
        return { accountId: account.id, testKey: key.secret };
      } finally {
        operations.close();
      }
    },
    async operator(...args) {
      // The CLI writes each action to the account's audit log first and refuses to act without it (docs/adr/0060).
      auditDashboard ??= startAuditDashboard({ checkout, customers, webhooks, accounts });
      const env = {
        ...process.env,
        ...addresses,
        DASHBOARD_GRPC_ADDRESS: (await auditDashboard).grpcAddress,
        LOG_LEVEL: 'silent',
      };
      const { stdout } = await runFile(process.execPath, [OPERATOR, ...args, '--json'], { env });
      return JSON.parse(stdout) as Record<string, unknown>;
    },
    async stop() {
      await (await auditDashboard)?.stop();
      await Promise.all(processes.map((p) => p.stop()));
      await Promise.all(Object.values(databases).map((db) => db.drop()));
    },
  };
}
