// Risk covered: the local platform signing statements with a new key at every start (yesterday's
// statement no longer verifies with the keys the pages publish), publishing a key other than the one
// it signs with, or ignoring the key an operator set. Real PostgreSQL: a local state database of its own.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { parsePublicKeys, parseSigningKey } from '@hc/exports';
import { dropDatabase, withDatabase } from '@hc/db';
import { TEST_STATEMENT_PUBLIC_KEYSET, TEST_STATEMENT_SIGNING_KEY, testDatabaseServerUrl } from '@hc/test-kit';
import { localStatementKeys, STATEMENT_KEY_NAME } from '../src/local-statement-key.ts';
import { CLUSTER_SCOPE, openLocalState } from '../src/local-state.ts';

const url = withDatabase(testDatabaseServerUrl(), `t_platform_stmt_${randomBytes(5).toString('hex')}`);
const state = await openLocalState(url);
afterAll(async () => {
  await state.close();
  await dropDatabase(url);
});

describe('the statement signing key of ./scripts/start', () => {
  it('is made once, kept beside the data, and the key it publishes is the one it signs with', async () => {
    const first = await localStatementKeys(state, {});
    expect(first.origin).toBe('new');
    expect(first.keyId).toMatch(/^local-[0-9a-z]+$/);
    expect(await state.get(CLUSTER_SCOPE, STATEMENT_KEY_NAME)).toBe(first.signingKey);
    expect(parsePublicKeys(first.publicKeys).get(first.keyId)!.equals(parseSigningKey(first.signingKey).publicKey)).toBe(true);
    expect(await localStatementKeys(state, {})).toEqual({ ...first, origin: 'kept' });
  });

  it('takes STATEMENT_SIGNING_KEY and STATEMENT_PUBLIC_KEYSET from the environment over the kept key', async () => {
    const env = { STATEMENT_SIGNING_KEY: TEST_STATEMENT_SIGNING_KEY, STATEMENT_PUBLIC_KEYSET: TEST_STATEMENT_PUBLIC_KEYSET };
    expect(await localStatementKeys(state, env)).toEqual({
      signingKey: TEST_STATEMENT_SIGNING_KEY,
      publicKeys: TEST_STATEMENT_PUBLIC_KEYSET,
      keyId: 'test-statements-1',
      origin: 'environment',
    });
  });
});
