/**
 * A platform of a benchmark's own (tools/platform/src/platform.ts as a process): free ports, its own
 * databases and NATS prefix, every rate limit raised so the benchmark measures the platform rather
 * than its limits. Shared by `pnpm bench` (bench.ts) and `pnpm bench:pipeline` (pipeline-rate.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  killLeftovers,
  launchPlatform,
  platformSetting,
  stopPlatform,
  type PlatformSetting,
  type RunningPlatform,
} from '../../platform/src/platform-process.ts';
import { descendants, load1 } from './measure.ts';
import type { PipelineTarget } from './pipeline.ts';
import type { BenchReceiver } from './webhook-receiver.ts';

export interface OwnPlatform {
  /** GATEWAY_URL: the front router (API and /pay/*). */
  url: string;
  /** The API straight at the gateway, as an ingress sends it. */
  apiUrl: string;
  /** The hosted pages process, as an ingress sends /pay/* to it. */
  pagesUrl: string;
  key: string;
  /** The platform command's process: its descendants are the supervised services. */
  pid: number;
  pipeline: PipelineTarget;
  setting: PlatformSetting;
  printed: RunningPlatform['printed'];
  stop(): Promise<void>;
}

const root = join(import.meta.dirname, '..', '..', '..');

/**
 * Starts the platform with PLATFORM_HOME `home`; `extraEnv` (e.g. NODE_OPTIONS for profiles) goes to every
 * process. `checkout` runs another worktree's platform (an A/B of old and new code, memory.ts).
 */
export async function startOwnPlatform(
  label: string,
  home: string,
  extraEnv: NodeJS.ProcessEnv = {},
  checkout: string = root,
): Promise<OwnPlatform> {
  const setting = await platformSetting(label);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...setting.env,
    PLATFORM_HOME: home,
    RATE_LIMIT_REQUESTS_PER_MINUTE: '1000000',
    RATE_LIMIT_STARTS_PER_MINUTE: '1000000',
    PAGES_VIEWS_PER_MINUTE: '1000000',
    // The highest the notifications config takes: every paid bench payment gets its Test receipt.
    TEST_RECEIPTS_PER_ACCOUNT_HOUR: '10000',
    ...extraEnv,
  };
  const launched = launchPlatform(process.execPath, [join(checkout, 'tools/platform/src/platform.ts')], {
    cwd: checkout,
    env,
    // The platform's own readiness wait (PLATFORM_READY_TIMEOUT_S) plus a minute for its migrations.
    timeoutMs: Math.max(180_000, 1000 * Number(env['PLATFORM_READY_TIMEOUT_S'] ?? 0) + 60_000),
  });
  // A start that never got ready (a loaded machine) leaves nothing behind: its processes and databases.
  const platform = await launched.ready.catch(async (error: unknown) => {
    killLeftovers();
    await launched.exited();
    await setting.dropDatabases();
    throw error;
  });
  const printed = platform.printed;
  return {
    url: printed['GATEWAY_URL']!,
    apiUrl: `http://127.0.0.1:${setting.env['PLATFORM_GATEWAY_BACKEND_PORT']}`,
    pagesUrl: `http://127.0.0.1:${setting.env['PAGES_PORT']}`,
    key: printed['TEST_SECRET_KEY']!,
    pid: platform.process.pid!,
    pipeline: {
      checkoutGrpcAddress: setting.env['CHECKOUT_GRPC_ADDRESS']!,
      checkoutDatabaseUrl: setting.env['CHECKOUT_DATABASE_URL']!,
      customersDatabaseUrl: setting.env['CUSTOMERS_DATABASE_URL']!,
      natsUrl: setting.env['NATS_URL']!,
      natsPrefix: setting.env['NATS_SUBJECT_PREFIX']!,
      accountId: printed['DEMO_ACCOUNT_ID']!,
    },
    setting,
    printed,
    async stop() {
      await stopPlatform(platform);
      await setting.dropDatabases();
    },
  };
}

/**
 * An A/B on one machine: for each round, starts each checkout's platform in turn (a fresh PLATFORM_HOME,
 * `extraEnv` to every process), runs `measure` on it and stops it. A start that never got ready (a
 * loaded machine starts eleven processes slowly) is said and skipped.
 */
export async function eachPlatformInTurn(
  settings: { label: string; roots: readonly string[]; rounds: number; extraEnv?: NodeJS.ProcessEnv; say: (line: string) => void },
  measure: (platform: OwnPlatform) => Promise<void>,
): Promise<void> {
  const { label, roots, say } = settings;
  for (let round = 1; round <= settings.rounds; round += 1) {
    for (const root of roots) {
      const work = mkdtempSync(join(tmpdir(), `hc-${label}-`));
      say(`\nround ${round}: ${root} (load ${load1().toFixed(1)})`);
      const env = { ...settings.extraEnv, PLATFORM_READY_TIMEOUT_S: '400' };
      const platform = await startOwnPlatform(label, work, env, root).catch((error: Error) => {
        say(`  did not start: ${error.message.split('\n')[0]}`);
        return undefined;
      });
      try {
        if (platform) await measure(platform);
      } finally {
        await platform?.stop();
        rmSync(work, { recursive: true, force: true });
      }
    }
  }
}

/** Registers `receiver` as the platform's Test webhook endpoint and trusts the secret it was given. */
export async function registerReceiver(platform: OwnPlatform, receiver: BenchReceiver): Promise<void> {
  const endpoint = await fetch(`${platform.apiUrl}/v1/webhook_endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${platform.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url }),
  });
  if (!endpoint.ok) throw new Error(`registering the endpoint answered ${endpoint.status}: ${await endpoint.text()}`);
  receiver.trust(((await endpoint.json()) as { secret: string }).secret);
}

/** The platform command itself (its front router) and every process it supervises. */
export function platformProcesses(platform: OwnPlatform): { pid: number; name: string }[] {
  return [{ pid: platform.pid, name: 'platform.ts (front router)' }, ...descendants(platform.pid)];
}

/** Each service's database URL, by service (CHECKOUT_DATABASE_URL → checkout). */
export function serviceDatabases(platform: OwnPlatform): [string, string][] {
  return Object.entries(platform.setting.env)
    .filter(([name]) => name.endsWith('_DATABASE_URL') && name !== 'PLATFORM_STATE_DATABASE_URL')
    .map(([name, url]) => [name.replace(/_DATABASE_URL$/, '').toLowerCase(), url!]);
}
