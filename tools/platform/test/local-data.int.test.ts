// Risk covered (issue 47, item 8): local data whose key is gone leaves the start command crash-looping
// without saying why, or with no way out but dropping databases by hand; `--reset-local-data` drops
// another platform's databases, forgets state that is not its own, or the cluster's keyring that
// other platforms on the cluster still need. Real PostgreSQL.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dropDatabase, ensureDatabase, withDatabase, withServer } from '@hc/db';
import { testDatabaseServerUrl } from '@hc/test-kit';
import { missingKeyAdvice, resetLocalData } from '../src/local-data.ts';
import { CLUSTER_SCOPE, databaseScope, openLocalState, type LocalState } from '../src/local-state.ts';

const run = `t_reset_${randomBytes(4).toString('hex')}`;
const url = (name: string) => withDatabase(testDatabaseServerUrl(), `${run}_${name}`);
let state: LocalState;
let stateDir: string;

async function exists(databaseUrl: string): Promise<boolean> {
  const name = new URL(databaseUrl).pathname.slice(1);
  return withServer(databaseUrl, async (client) =>
    Boolean((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount),
  );
}

beforeAll(async () => {
  state = await openLocalState(url('platform_local'));
  stateDir = mkdtempSync(join(tmpdir(), 'hc-reset-'));
});
afterAll(async () => {
  await state.close();
  await Promise.all(['platform_local', 'gateway', 'webhooks', 'other_gateway'].map((name) => dropDatabase(url(name))));
  rmSync(stateDir, { recursive: true, force: true });
});

describe('./scripts/start --reset-local-data', () => {
  it("drops this platform's databases and forgets their state; other platforms' and the cluster's keyring stay", async () => {
    const mine = [
      { service: 'gateway', url: url('gateway') },
      { service: 'webhooks', url: url('webhooks') },
    ];
    for (const database of [...mine, { service: 'gateway', url: url('other_gateway') }]) await ensureDatabase(database.url);
    await state.put(databaseScope(url('gateway')), 'demo-merchant', '{"account":"acct_1","secret":"sk_test_1"}');
    await state.put(databaseScope(url('other_gateway')), 'demo-merchant', '{"account":"acct_2","secret":"sk_test_2"}');
    await state.put(CLUSTER_SCOPE, 'secrets-encryption-keys', 'the keyring');
    writeFileSync(join(stateDir, 'demo-merchant.json'), '{}');
    writeFileSync(join(stateDir, 'platform.env'), 'GATEWAY_DATABASE_URL=…\n');
    const said: string[] = [];

    await resetLocalData(mine, state, stateDir, (line) => said.push(line));

    expect(await exists(url('gateway'))).toBe(false);
    expect(await exists(url('webhooks'))).toBe(false);
    expect(await exists(url('other_gateway'))).toBe(true);
    expect(await state.get(databaseScope(url('gateway')), 'demo-merchant')).toBeUndefined();
    expect(await state.get(databaseScope(url('other_gateway')), 'demo-merchant')).toContain('acct_2');
    expect(await state.get(CLUSTER_SCOPE, 'secrets-encryption-keys')).toBe('the keyring');
    expect(existsSync(join(stateDir, 'demo-merchant.json'))).toBe(false);
    expect(existsSync(join(stateDir, 'platform.env'))).toBe(true);
    expect(said).toEqual([
      `--reset-local-data: dropped the gateway database (${databaseScope(url('gateway'))})`,
      `--reset-local-data: dropped the webhooks database (${databaseScope(url('webhooks'))})`,
      `--reset-local-data: forgot 1 kept value(s) about them in ${run}_platform_local; starting afresh`,
    ]);
  });
});

describe('a service that meets secrets sealed with a key it was not given', () => {
  const log = [
    '{"level":50,"msg":"starting"}',
    'SecretDecryptError: endpoint_secrets.secret of we_1/1 is sealed with key "local-m1", which SECRETS_ENCRYPTION_KEYS does not list: give …',
  ].join('\n');

  it('is explained by the start command: the key id, the runbook, and --reset-local-data', () => {
    expect(missingKeyAdvice('webhooks', log, 'local')).toBe(
      'webhooks cannot start: its database holds secrets sealed with key "local-m1", which the local keyring does not have ' +
        '(the key was lost, or the databases were filled by a platform with other keys). Either start with that key ' +
        '(SECRETS_ENCRYPTION_KEYS=<a keyring listing it> ./scripts/start, or start once from an older clone whose ' +
        '.local/secrets-encryption-keys has it: it is taken over; docs/operations.md#a-key-missing-at-start), ' +
        'or, if nothing in the local databases matters, ./scripts/start --reset-local-data drops them and starts afresh.',
    );
    expect(missingKeyAdvice('webhooks', log, 'environment')).toContain('which SECRETS_ENCRYPTION_KEYS in your environment does not have');
  });

  it('is not taken for another crash', () => {
    expect(missingKeyAdvice('webhooks', 'Error: listen EADDRINUSE 127.0.0.1:50054', 'local')).toBeUndefined();
  });
});
