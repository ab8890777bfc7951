// Risk covered: the operator CLI, run as a real process, mishandles accounts and keys: a secret shown twice or never, a revoke or suspension not stored, bad input not refused, or wrong exit codes.
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { ACCOUNTS_MIGRATIONS_DIR, loadAccountsConfig, startAccountsService, type RunningAccountsService } from '@hc/accounts';
import { createLogger } from '@hc/logging';
import { createTestDatabase, testNatsPrefix, testNatsUrl, type TestDatabase } from '@hc/test-kit';
import { WALLET } from './platform-harness.ts';
import { startAuditDashboard, type AuditDashboard } from './audit-dashboard.ts';

const run = promisify(execFile);
const OPERATOR = fileURLToPath(new URL('../../tools/operator/src/operator.ts', import.meta.url));
// Node's on-disk compile cache: every run after the first skips compiling (and type-stripping) again.
const COMPILE_CACHE = join(tmpdir(), 'hc-operator-cli-compile-cache');

let database: TestDatabase;
/** The accounts service the CLI talks to over gRPC; the test reads through its verbs in this process. */
let accounts: RunningAccountsService;
let auditDashboard: AuditDashboard;

beforeAll(async () => {
  auditDashboard = await startAuditDashboard();
  database = await createTestDatabase('accounts', ACCOUNTS_MIGRATIONS_DIR);
  accounts = await startAccountsService(
    loadAccountsConfig({
      ACCOUNTS_DATABASE_URL: database.url,
      ACCOUNTS_GRPC_ADDRESS: '127.0.0.1:0',
      NATS_URL: testNatsUrl(),
      NATS_SUBJECT_PREFIX: testNatsPrefix('operator'),
      LOG_LEVEL: 'silent',
    }),
    createLogger('operator-cli-test', { level: 'silent' }),
  );
});
afterAll(async () => {
  await accounts?.stop();
  await database?.drop();
  await auditDashboard?.stop();
});

/** Every api_keys row of the account as stored, every column (the secret must be in none). */
async function storedKeys(accountId: string): Promise<string> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return JSON.stringify((await client.query('SELECT * FROM api_keys WHERE account_id = $1', [accountId])).rows);
  } finally {
    await client.end();
  }
}

// Each test starts several Node processes (the CLI): 12 s measured with the suite's PostgreSQL and NATS
// in containers on a shared machine, so a minute and a half under the whole suite's load.
jest.setTimeout(90_000);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the operator CLI as a child process against this file's database. */
function operator(...args: string[]): Promise<Outcome> {
  return operatorWith({}, ...args);
}

/** Runs the operator CLI as a child process against this file's database, with `env` on top. */
async function operatorWith(env: Record<string, string>, ...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [OPERATOR, ...args], {
      env: {
        ...process.env,
        ACCOUNTS_GRPC_ADDRESS: accounts.address,
        LOG_LEVEL: 'silent',
        NODE_COMPILE_CACHE: COMPILE_CACHE,
        DASHBOARD_GRPC_ADDRESS: auditDashboard.grpcAddress,
        // The audit dashboard and accounts run in this jest worker, beside several CLI processes at once: in
        // CI (2 cores, the whole suite) an audit write once missed the 5 s default deadline (run of 30 Nov).
        // These tests are about what the CLI does, not how fast; a hang is still caught by the timeout below.
        GRPC_TIMEOUT_MS: '20000',
        ...env,
      },
      // Catches a CLI that hangs, not a slow one: in CI, beside the whole suite on two cores, the first
      // runs (cold compile cache, several at once) took over 20 s (run of 28 Nov).
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Runs a command that must succeed with --json and returns its parsed output. */
async function operatorJson(...args: string[]): Promise<Record<string, unknown>> {
  const outcome = await operator(...args, '--json');
  expect({ code: outcome.code, stderr: outcome.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(outcome.stdout) as Record<string, unknown>;
}

/** Runs a command that must succeed with --json and prints a JSON array. */
async function operatorJsonList(...args: string[]): Promise<Record<string, unknown>[]> {
  const outcome = await operator(...args, '--json');
  expect({ code: outcome.code, stderr: outcome.stderr }).toEqual({ code: 0, stderr: '' });
  const parsed: unknown = JSON.parse(outcome.stdout);
  expect(Array.isArray(parsed)).toBe(true);
  return parsed as Record<string, unknown>[];
}

/** An account made in-process (fast); the CLI is then run against it. */
async function account(payoutWallet: string | undefined = WALLET): Promise<string> {
  return (await accounts.operations.createAccount({ name: 'Mug shop', payoutWallet })).id;
}

// Each test has an account of its own, so they run concurrently: every CLI run is a Node process.
describe('operator CLI', () => {
  it.concurrent('accounts create --json makes an active account with the payout wallet and the default fee', async () => {
    const created = await operatorJson('accounts', 'create', '--name', 'Mug shop', '--payout-wallet', WALLET);
    expect(created).toEqual({
      id: expect.stringMatching(/^acct_/),
      name: 'Mug shop',
      status: 'active',
      payout_wallet: WALLET,
      fee_bps: 150,
      created: expect.any(Number),
    });
    expect(await accounts.operations.getAccount(String(created['id']))).toMatchObject({
      name: 'Mug shop',
      status: 'active',
      payoutWallet: WALLET,
    });
  });

  it.concurrent(
    'keys create --mode test --json prints the secret once; only its hash is stored and keys list shows only the hint',
    async () => {
      const accountId = await account();
      const created = await operatorJson('keys', 'create', accountId, '--mode', 'test', '--label', 'CI');
      const secret = String(created['secret']);
      expect(secret).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
      expect(created).toMatchObject({
        id: expect.stringMatching(/^key_/),
        account: accountId,
        mode: 'test',
        label: 'CI',
        revoked: null,
        hint: `sk_test_…${secret.slice(-4)}`,
      });

      const found = await accounts.operations.activeKey(secret);
      expect(found).toMatchObject({ id: created['id'], mode: 'test', revokedAt: null });
      const rows = await storedKeys(accountId);
      expect(rows).not.toContain(secret.slice('sk_test_'.length));

      const [listed, text] = await Promise.all([operator('keys', 'list', accountId, '--json'), operator('keys', 'list', accountId)]);
      expect([listed.code, text.code]).toEqual([0, 0]);
      for (const output of [listed.stdout, text.stdout]) {
        expect(output).not.toContain(secret.slice('sk_test_'.length));
      }
      const keys = JSON.parse(listed.stdout) as Record<string, unknown>[];
      expect(keys).toEqual([
        {
          id: created['id'],
          account: accountId,
          mode: 'test',
          hint: created['hint'],
          label: 'CI',
          created: expect.any(Number),
          revoked: null,
        },
      ]);
      expect(text.stdout).toContain(`hint: ${String(created['hint'])}`);
    },
  );

  it.concurrent('keys create --mode live makes a live key and any other mode exits 2 without making one', async () => {
    const accountId = await account();
    const [live, refused] = await Promise.all([
      operatorJson('keys', 'create', accountId, '--mode', 'live'),
      operator('keys', 'create', accountId, '--mode', 'prod', '--json'),
    ]);
    expect(String(live['secret'])).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(refused.code).toBe(2);
    expect((await accounts.operations.listKeys(accountId)).map((key) => key.mode)).toEqual(['live']);
  });

  it.concurrent('an option without its value, or a flag given a value, exits 2 with the usage', async () => {
    const [noName, flagValue] = await Promise.all([operator('accounts', 'create', '--name'), operator('accounts', 'list', '--json=1')]);
    for (const outcome of [noName, flagValue]) {
      expect(outcome.code).toBe(2);
      expect(outcome.stderr).toContain('usage: operator');
    }
  });

  it.concurrent('keys revoke stores the key as revoked and keys list shows it revoked', async () => {
    const accountId = await account();
    const { key, secret } = await accounts.operations.createKey(accountId, 'test');
    const revoked = await operatorJson('keys', 'revoke', key.id);
    expect(revoked).toMatchObject({ id: key.id, revoked: expect.any(Number) });
    expect(await accounts.operations.activeKey(secret)).toBeNull();
    expect((await accounts.operations.listKeys(accountId))[0]?.revokedAt).toBeInstanceOf(Date);
    const keys = await operatorJsonList('keys', 'list', accountId);
    expect(keys).toEqual([expect.objectContaining({ id: key.id, revoked: revoked['revoked'] })]);
  });

  it.concurrent('accounts suspend and accounts reactivate store the status', async () => {
    const accountId = await account();
    expect(await operatorJson('accounts', 'suspend', accountId)).toMatchObject({ id: accountId, status: 'suspended' });
    expect(await accounts.operations.getAccount(accountId)).toMatchObject({ status: 'suspended' });
    expect(await operatorJson('accounts', 'reactivate', accountId)).toMatchObject({ id: accountId, status: 'active' });
    expect(await accounts.operations.getAccount(accountId)).toMatchObject({ status: 'active' });
  });

  it.concurrent('accounts set-payout-wallet with an invalid wallet exits 1 with the error and leaves the wallet unchanged', async () => {
    const accountId = await account();
    const outcome = await operator('accounts', 'set-payout-wallet', accountId, '0x1234', '--json');
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(JSON.parse(outcome.stderr)).toEqual({ error: { code: 'invalid_request', message: expect.any(String), field: 'payout_wallet' } });
    expect(await accounts.operations.getAccount(accountId)).toMatchObject({ payoutWallet: WALLET });
  });

  it.concurrent(
    '--help on a command or a group prints its usage on stdout and exits 0, even with no accounts service to reach',
    async () => {
      const noDatabase = { ACCOUNTS_GRPC_ADDRESS: '127.0.0.1:1' };
      const [command, group] = await Promise.all([
        operatorWith(noDatabase, 'webhooks', 'endpoints', 'add', '--help'),
        operatorWith(noDatabase, 'customers', '-h'),
      ]);
      expect([command.code, command.stderr, group.code, group.stderr]).toEqual([0, '', 0, '']);
      expect(command.stdout).toContain('usage: operator webhooks endpoints add ACCOUNT_ID --mode test|live --url URL');
      expect(group.stdout).toContain('customers erase ACCOUNT_ID CUSTOMER_ID --mode test|live');
      expect(group.stdout).toContain('customers note ACCOUNT_ID CUSTOMER_ID --mode test|live [--set TEXT]');
    },
  );

  it.concurrent('an option the command does not take exits 2 with that command’s usage, before touching anything', async () => {
    const outcome = await operator('accounts', 'create', '--name', 'Mug shop', '--mode', 'test');
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain('accounts create does not take --mode');
    expect(outcome.stderr).toContain('usage: operator accounts create --name NAME');
  });

  it.concurrent('an unknown command, an unknown option or a missing argument exits 2 with the usage', async () => {
    const usages: string[][] = [
      ['accounts', 'explode'],
      ['accounts', 'list', '--colour'],
      ['accounts', 'suspend'],
    ];
    const outcomes = await Promise.all(usages.map((args) => operator(...args)));
    expect(outcomes.map(({ code }, i) => ({ args: usages[i], code }))).toEqual(usages.map((args) => ({ args, code: 2 })));
    for (const outcome of outcomes) expect(outcome.stderr).toContain('usage: operator');
  });
});
