// Risk covered: a dashboard change that the audit log never shows because the process died between
// making it and writing its line (issue 32, docs/adr/0060). The dashboard runs as a real process with a
// crash point armed (HC_CRASH_POINTS, @hc/runtime): SIGKILL right after it answered an owner's role
// change, before the line's completion. The change is made and the log still holds its line, `started`;
// the restarted dashboard shows it as "started, no outcome recorded". Real platform, PostgreSQL, HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createServiceClient, type PublicCallContext } from '@hc/grpc';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';
import { DASHBOARD_MIGRATIONS_DIR } from '@hc/dashboard';
import {
  createTestDatabase,
  eventually,
  freePort,
  NOT_RUNNING_ADDRESS,
  TEST_SECRETS_ENCRYPTION_KEYS,
  type TestDatabase,
  openTestPool,
} from '@hc/test-kit';
import { startPlatform, type Platform } from './platform-harness.ts';

const DASHBOARD_MAIN = fileURLToPath(new URL('../../services/dashboard/src/main.ts', import.meta.url));
const PASSWORD = 'correct horse battery staple';
let platform: Platform;
let database: TestDatabase;
let env: NodeJS.ProcessEnv;
let dashboard: { child: ChildProcess; output: () => string } | undefined;
let url: string;

async function startDashboardProcess(crashPoints: string): Promise<void> {
  const child = spawn(process.execPath, [DASHBOARD_MAIN], {
    env: { ...env, HC_CRASH_POINTS: crashPoints },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  dashboard = { child, output: () => output };
  await eventually(
    async () => output.includes('dashboard listening') || child.exitCode !== null,
    (up) => up,
    30_000,
  );
  if (child.exitCode !== null) throw new Error(`dashboard exited at start:\n${output}`);
}

beforeAll(async () => {
  platform = await startPlatform();
  database = await createTestDatabase('dashboard', DASHBOARD_MIGRATIONS_DIR);
  const [httpPort, grpcPort] = [await freePort(), await freePort()];
  url = `http://127.0.0.1:${httpPort}`;
  env = {
    ...process.env,
    DASHBOARD_DATABASE_URL: database.url,
    DASHBOARD_HOST: '127.0.0.1',
    DASHBOARD_PORT: String(httpPort),
    DASHBOARD_GRPC_ADDRESS: `127.0.0.1:${grpcPort}`,
    DASHBOARD_SECURE_COOKIES: 'false',
    SECRETS_ENCRYPTION_KEYS: TEST_SECRETS_ENCRYPTION_KEYS,
    PUBLIC_BASE_URL: url,
    ACCOUNTS_GRPC_ADDRESS: platform.accountsAddress,
    CHECKOUT_GRPC_ADDRESS: platform.stack.checkout.address,
    CUSTOMERS_GRPC_ADDRESS: platform.customers.address,
    WEBHOOKS_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
    NOTIFICATIONS_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
    LOG_LEVEL: 'warn',
  };
}, 180_000);
afterAll(async () => {
  if (dashboard && dashboard.child.exitCode === null && dashboard.child.signalCode === null) {
    const exited = new Promise((resolve) => dashboard!.child.once('exit', resolve));
    dashboard.child.kill('SIGTERM');
    await exited;
  }
  await database?.drop();
  await platform?.stop();
});

async function signIn(email: string): Promise<{ cookie: string; csrf: string }> {
  const answer = await fetch(`${url}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
    body: new URLSearchParams({ email, password: PASSWORD, next: '/dashboard/test/team' }),
  });
  expect(answer.status).toBe(303);
  const cookie = answer.headers.getSetCookie()[0]!.split(';')[0]!;
  const page = await (await fetch(`${url}/dashboard/test/team`, { headers: { cookie } })).text();
  return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(page)![1]! };
}

it('SIGKILL after a role change was answered leaves its line started, never missing', async () => {
  await startDashboardProcess('dashboard.audit.before-completion');
  const merchant = await platform.merchant();
  const users = createServiceClient<typeof DashboardUsersService, PublicCallContext>(DashboardUsersService, env['DASHBOARD_GRPC_ADDRESS']!);
  const owner = `owner-${Date.now()}@shop.example`;
  const dev = `dev-${Date.now()}@shop.example`;
  await users.createUser({ accountId: merchant.accountId, email: owner, password: PASSWORD }, { requestId: 'req_test' });
  const made = await users.createUser(
    { accountId: merchant.accountId, email: dev, password: PASSWORD, role: 'developer' },
    { requestId: 'req_test' },
  );
  users.close();
  const session = await signIn(owner);

  const died = new Promise<NodeJS.Signals | null>((resolve) => dashboard!.child.once('exit', (_code, signal) => resolve(signal)));
  const answer = await fetch(`${url}/dashboard/test/team/${made.user!.id}/role`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url, cookie: session.cookie },
    body: new URLSearchParams({ _csrf: session.csrf, role: 'viewer' }),
  }).then(
    (response) => response.status,
    () => 'cut',
  );
  expect(await died).toBe('SIGKILL');
  // The answer may or may not have left before the kill; the change was made either way.
  expect([303, 'cut']).toContain(answer);

  const pool = openTestPool(database.url, 1);
  try {
    const role = await pool.query<{ role: string }>('SELECT role FROM dashboard_users WHERE email = $1', [dev]);
    expect(role.rows[0]!.role).toBe('viewer');
    const lines = await pool.query<{ actor: string; action: string; target: string; outcome: string; completed_at: Date | null }>(
      `SELECT actor, action, target, outcome, completed_at FROM audit_entries WHERE account_id = $1 AND action = 'team.change_role'`,
      [merchant.accountId],
    );
    expect(lines.rows).toEqual([
      { actor: owner, action: 'team.change_role', target: made.user!.id, outcome: 'started', completed_at: null },
    ]);
  } finally {
    await pool.end();
  }

  // Restarted: the owner reads the line as what it is.
  await startDashboardProcess('');
  const again = await signIn(owner);
  const log = await (await fetch(`${url}/dashboard/test/audit?action=team.change_role`, { headers: { cookie: again.cookie } })).text();
  expect(log).toContain('started, no outcome recorded');
}, 180_000);
