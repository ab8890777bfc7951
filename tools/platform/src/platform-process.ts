/**
 * The local platform (./scripts/start or tools/platform/src/platform.ts) as a real process for tests: on free
 * ports, with databases (its local state's too) and a NATS prefix of its own so it never meets a platform someone else runs
 * on this machine, its printed lines parsed and its stderr watchable.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dropDatabase, withDatabase } from '@hc/db';
import { freePort, testDatabaseServerUrl, testNatsPrefix, testNatsUrl } from '@hc/test-kit';

const SERVICES = ['gateway', 'checkout', 'settlement', 'customers', 'webhooks', 'dashboard', 'notifications', 'accounts'] as const;

export { freePort };

export interface PlatformSetting {
  /** The variables that put the platform on its own ports, databases and NATS prefix. */
  env: Record<string, string>;
  gatewayPort: number;
  /** Drops the platform's databases (call after it stopped). */
  dropDatabases(): Promise<void>;
}

export async function platformSetting(label: string): Promise<PlatformSetting> {
  const [gatewayPort, checkout, settlement, customers, webhooks, dashboardGrpc, notifications, accounts] = await Promise.all(
    SERVICES.map(() => freePort()),
  );
  // The local mail catcher (maildev): its SMTP and web ports.
  const [mailSmtpPort, mailWebPort] = await Promise.all([freePort(), freePort()]);
  // Behind the front router on GATEWAY_PORT: the gateway itself and the hosted pages (tools/platform/src/platform.ts).
  const [gatewayBackendPort, pagesPort, gateway2Port] = await Promise.all([freePort(), freePort(), freePort()]);
  // The Live processor emulator and settlement's notices listener (tools/platform/src/platform.ts).
  const [emulatorPort, noticesPort] = await Promise.all([freePort(), freePort()]);
  // The merchant dashboard (behind the front router too).
  const dashboardPort = await freePort();
  const run = `${label}_${randomBytes(4).toString('hex')}`;
  const names = SERVICES.map((service) => `${run}_${service}`);
  // The local state (the keyring of secrets at rest, the demo key) of its own too (docs/adr/0083).
  const stateDatabase = `${run}_platform_local`;
  const server = testDatabaseServerUrl();
  return {
    gatewayPort: Number(gatewayPort),
    env: {
      GATEWAY_PORT: String(gatewayPort),
      PLATFORM_GATEWAY_BACKEND_PORT: String(gatewayBackendPort),
      // The second gateway's, under PLATFORM_REPLICAS=gateway (e2e/test/faults-many.e2e.test.ts).
      PLATFORM_GATEWAY_2_PORT: String(gateway2Port),
      PAGES_PORT: String(pagesPort),
      EMULATOR_PORT: String(emulatorPort),
      SETTLEMENT_NOTICES_ADDRESS: `127.0.0.1:${noticesPort}`,
      CHECKOUT_GRPC_ADDRESS: `127.0.0.1:${checkout}`,
      SETTLEMENT_GRPC_ADDRESS: `127.0.0.1:${settlement}`,
      CUSTOMERS_GRPC_ADDRESS: `127.0.0.1:${customers}`,
      WEBHOOKS_GRPC_ADDRESS: `127.0.0.1:${webhooks}`,
      DASHBOARD_PORT: String(dashboardPort),
      DASHBOARD_GRPC_ADDRESS: `127.0.0.1:${dashboardGrpc}`,
      ACCOUNTS_GRPC_ADDRESS: `127.0.0.1:${accounts}`,
      NOTIFICATIONS_GRPC_ADDRESS: `127.0.0.1:${notifications}`,
      MAIL_CATCHER_SMTP_PORT: String(mailSmtpPort),
      MAIL_CATCHER_WEB_PORT: String(mailWebPort),
      ...Object.fromEntries(
        SERVICES.map((service, i) => [`${service.toUpperCase()}_DATABASE_URL`, withDatabase(server, String(names[i]))]),
      ),
      PLATFORM_STATE_DATABASE_URL: withDatabase(server, stateDatabase),
      NATS_URL: testNatsUrl(),
      NATS_SUBJECT_PREFIX: testNatsPrefix(label),
      // A test's platform starts beside other suites on a loaded machine: its own readiness wait
      // (60 s for a developer) gets close to the tests' 120 s, so a slow start is not a failure.
      PLATFORM_READY_TIMEOUT_S: '110',
    },
    async dropDatabases() {
      await Promise.all([...names, stateDatabase].map((name) => dropDatabase(withDatabase(server, name)).catch(() => undefined)));
    },
  };
}

export interface PlatformProcess {
  readonly process: ChildProcess;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stderr after `from` characters (rejects after timeoutMs). */
  waitForStderr(pattern: RegExp, timeoutMs: number, from?: number): Promise<RegExpMatchArray>;
  /** The exit code, once it exited. */
  exited(): Promise<number | null>;
}

export interface RunningPlatform extends PlatformProcess {
  /** GATEWAY_URL, TEST_SECRET_KEY, DEMO_ACCOUNT_ID as printed. */
  readonly printed: Record<string, string>;
  /** Seconds from the command's start until it printed its lines. */
  readonly seconds: number;
}

const launched: ChildProcess[] = [];

/** Runs `command args` in its own process group, its stderr watchable; `ready` once it printed DEMO_ACCOUNT_ID. */
export function launchPlatform(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): PlatformProcess & { ready: Promise<RunningPlatform> } {
  const began = Date.now();
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  launched.push(child);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const watch of watchers) watch();
  });
  const handle: PlatformProcess = {
    process: child,
    stderr: () => stderr,
    exited: () => exit,
    waitForStderr: (pattern, timeoutMs, from = 0) =>
      new Promise<RegExpMatchArray>((resolve, reject) => {
        const check = () => {
          const match = stderr.slice(from).match(pattern);
          if (!match) return;
          watchers.delete(check);
          clearTimeout(timer);
          resolve(match);
        };
        const timer = setTimeout(() => {
          watchers.delete(check);
          reject(new Error(`stderr did not show ${pattern} within ${timeoutMs} ms:\n${stderr.slice(-4000)}`));
        }, timeoutMs);
        watchers.add(check);
        check();
      }),
  };
  const ready = new Promise<RunningPlatform>((resolve, reject) => {
    const fail = (why: string) => reject(new Error(`${why}\n--- stdout\n${stdout}\n--- stderr (end)\n${stderr.slice(-4000)}`));
    const timer = setTimeout(() => fail(`${command} printed no DEMO_ACCOUNT_ID within ${options.timeoutMs} ms`), options.timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!/^DEMO_ACCOUNT_ID=.*\n/m.test(stdout)) return;
      clearTimeout(timer);
      const lines = stdout.split('\n').flatMap((line) => (/^[A-Z_]+=/.test(line) ? [line.split(/=(.*)/s, 2)] : []));
      resolve({ ...handle, printed: Object.fromEntries(lines) as Record<string, string>, seconds: (Date.now() - began) / 1000 });
    });
    void exit.then((code) => {
      clearTimeout(timer);
      fail(`${command} exited before it was ready (code ${code})`);
    });
  });
  ready.catch(() => undefined); // a caller that does not wait for readiness must not see an unhandled rejection
  return { ...handle, ready };
}

/** Runs `command args` and waits until it printed its lines (rejects with its output otherwise). */
export function startPlatform(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<RunningPlatform> {
  return launchPlatform(command, args, options).ready;
}

/** Ctrl-C: the start command stops every process it started; resolves with its exit code. */
export async function stopPlatform(platform: PlatformProcess): Promise<number | null> {
  platform.process.kill('SIGINT');
  return platform.exited();
}

/** After a test: SIGKILL every platform still running and every process it started (its process group). */
export function killLeftovers(): void {
  for (const child of launched.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
