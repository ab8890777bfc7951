/**
 * The real supervised platform (tools/platform/src/platform.ts, as ./scripts/start runs it) on a PostgreSQL and a
 * NATS of its own, so a test can crash them without touching the machine's shared servers; with the
 * demo merchant's webhook endpoint pointed at a signed-webhook receiver.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { withDatabase } from '@hc/db';
import { startDisposableNats, startDisposablePostgres, type DisposableNats, type DisposablePostgres } from '@hc/test-kit';
import {
  killLeftovers,
  launchPlatform,
  platformSetting,
  stopPlatform,
  type RunningPlatform,
} from '../../tools/platform/src/platform-process.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

const repository = join(import.meta.dirname, '..', '..');
const OPERATOR = join(repository, 'tools/operator/src/operator.ts');
const run = promisify(execFile);

/** The PostgreSQL the platform's databases live on: a single server, or a cluster behind HAProxy (e2e/test/failover.e2e.test.ts). */
export interface DatabaseServer {
  /** Server URL (database `postgres`), for withDatabase(). */
  readonly url: string;
  /** `keepLogs`: a server that keeps logs of its own leaves them for a failed run. */
  stop(keepLogs?: boolean): Promise<void>;
}

/** The NATS the services are given: one server, or a JetStream cluster (its URLs comma-separated; e2e/test/faults-many.e2e.test.ts). */
export interface MessageServer {
  readonly url: string;
  stop(): Promise<void>;
}

export interface DisposablePlatform<S extends DatabaseServer = DisposablePostgres, N extends MessageServer = DisposableNats> {
  readonly platform: RunningPlatform;
  readonly postgres: S;
  readonly nats: N;
  readonly receiver: WebhookReceiver;
  readonly gatewayUrl: string;
  readonly key: string;
  /** The environment the platform was started with (its databases' URLs, its addresses). */
  readonly env: NodeJS.ProcessEnv;
  /** Runs an operator CLI command against this platform (`--json` added); its parsed output. */
  operator(...args: string[]): Promise<unknown>;
  /** The platform's log folder (one file per process). */
  readonly logs: string;
  /** Stops everything; removes the logs unless `keepLogs`. */
  stop(keepLogs: boolean): Promise<void>;
}

/** `env` adds to (or overrides) the platform's environment, e.g. PLATFORM_REPLICAS (e2e/test/replicas.e2e.test.ts). */
export async function startDisposablePlatform(label: string, env: Record<string, string> = {}): Promise<DisposablePlatform> {
  return startDisposablePlatformOn(label, startDisposablePostgres, env);
}

/**
 * The same on a database server `startServer` makes: every `*_DATABASE_URL` the platform runner sets
 * (whatever services it starts) is pointed at it.
 */
export async function startDisposablePlatformOn<S extends DatabaseServer>(
  label: string,
  startServer: () => Promise<S>,
  env: Record<string, string> = {},
): Promise<DisposablePlatform<S>> {
  return startDisposablePlatformWith(label, startServer, startDisposableNats, env);
}

/** The same on the NATS `startNats` makes too (NATS_URL: a cluster's URLs, comma-separated). */
export async function startDisposablePlatformWith<S extends DatabaseServer, N extends MessageServer>(
  label: string,
  startServer: () => Promise<S>,
  startNats: () => Promise<N>,
  env: Record<string, string> = {},
): Promise<DisposablePlatform<S, N>> {
  const home = mkdtempSync(join(tmpdir(), `hc-${label}-`));
  // Whatever started is stopped again if a later step fails: a failed start must not leave a PostgreSQL,
  // a NATS or a platform running that keeps the test worker (and the machine) busy after the suite.
  const [postgres, nats, receiver] = await Promise.allSettled([startServer(), startNats(), startWebhookReceiver()]);
  const stopServers = async (): Promise<void> => {
    for (const server of [postgres, nats, receiver]) if (server.status === 'fulfilled') await server.value.stop().catch(() => undefined);
  };
  if (postgres.status === 'rejected' || nats.status === 'rejected' || receiver.status === 'rejected') {
    await stopServers();
    rmSync(home, { recursive: true, force: true });
    throw [postgres, nats, receiver].find((server) => server.status === 'rejected')!.reason;
  }
  try {
    return await startPlatformOn(label, home, postgres.value, nats.value, receiver.value, env);
  } catch (error) {
    killLeftovers();
    await stopServers();
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
}

async function startPlatformOn<S extends DatabaseServer, N extends MessageServer>(
  label: string,
  home: string,
  postgres: S,
  nats: N,
  receiver: WebhookReceiver,
  extraEnv: Record<string, string>,
): Promise<DisposablePlatform<S, N>> {
  const setting = await platformSetting(label);
  const ownDatabases = Object.fromEntries(
    Object.entries(setting.env)
      .filter(([name]) => name.endsWith('_DATABASE_URL'))
      .map(([name, url]) => [name, withDatabase(postgres.url, new URL(url).pathname.slice(1))]),
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...setting.env,
    ...ownDatabases,
    NATS_URL: nats.url,
    PLATFORM_HOME: home,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_REQUESTS_PER_MINUTE: '1000000',
    RATE_LIMIT_STARTS_PER_MINUTE: '1000000',
    // Redeliveries soon after a failure, so tests do not wait on production back-off.
    WEBHOOKS_RETRY_SCHEDULE: '0s,200ms,500ms,1s,2s,3s,5s,5s,5s,5s',
    WEBHOOKS_POLL_INTERVAL: '100ms',
    WEBHOOKS_DELIVERY_TIMEOUT: '5s',
    // A delivery whose attempt was cut (webhooks killed, or PostgreSQL down while its outcome was
    // recorded) is taken again when its lease runs out: 2 minutes in production, longer than the suite
    // waits for deliveries (a run once reported such a delivery as lost). 10 s keeps the same path.
    WEBHOOKS_LEASE: '10s',
    ...extraEnv,
  };
  const platform = await launchPlatform(process.execPath, [join(repository, 'tools', 'platform', 'src', 'platform.ts')], {
    cwd: repository,
    env,
    // The platform's own readiness wait (PLATFORM_READY_TIMEOUT_S, 60 s by default), and a little more.
    timeoutMs: Math.max(120_000, Number(env['PLATFORM_READY_TIMEOUT_S'] ?? 0) * 1000 + 10_000),
  }).ready;
  const operator = async (...args: string[]): Promise<unknown> =>
    JSON.parse((await run(process.execPath, [OPERATOR, ...args, '--json'], { env })).stdout);
  const added = (await operator(
    'webhooks',
    'endpoints',
    'add',
    platform.printed['DEMO_ACCOUNT_ID']!,
    '--mode',
    'test',
    '--url',
    receiver.url,
  )) as {
    secret: string;
  };
  receiver.useSecret(added.secret);
  const logs = join(home, '.platform', 'logs');
  return {
    platform,
    postgres,
    nats,
    receiver,
    gatewayUrl: String(platform.printed['GATEWAY_URL']),
    key: String(platform.printed['TEST_SECRET_KEY']),
    env,
    logs,
    operator,
    async stop(keepLogs) {
      await stopPlatform(platform);
      killLeftovers();
      await receiver.stop();
      await nats.stop();
      await postgres.stop(keepLogs);
      if (!keepLogs) rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * What a fault run under a load of payments sets on top of the platform's defaults: every paid payment
 * gets its Test receipt (the default cap, 20 an hour per account, would cancel most), so the mails can
 * be counted against the payments.
 */
export const UNDER_LOAD: Readonly<Record<string, string>> = { TEST_RECEIPTS_PER_ACCOUNT_HOUR: '10000' };

/** Two copies of every worker: both expiry sweepers pass often, so they race on the same due payments. */
export const RACING_SWEEPERS: Readonly<Record<string, string>> = { EXPIRY_SWEEP_INTERVAL_MS: '200' };

/**
 * A fault run's end: everything stopped, and when the run did not pass its logs kept and their folders
 * printed (the platform's, and a PostgreSQL cluster's own when there is one).
 */
export async function stopAfterRun(
  label: string,
  setup: DisposablePlatform<DatabaseServer, MessageServer> | undefined,
  passed: boolean,
): Promise<void> {
  if (!setup) return;
  await setup.stop(!passed);
  if (passed) return;
  const clusterDir = 'dir' in setup.postgres ? `, the PostgreSQL cluster's in ${String(setup.postgres.dir)}` : '';
  process.stdout.write(`${label}: the platform's logs are kept in ${setup.logs}${clusterDir}\n`);
}

/** Deaths the supervisor saw that were not a SIGKILL (those are the suite's own). */
export function unplannedDeaths(stderr: string): string[] {
  return [...stderr.matchAll(/(\w+) exited unexpectedly \(([^)]*)\)/g)].filter(([, , how]) => how !== 'SIGKILL').map(([line]) => line);
}
