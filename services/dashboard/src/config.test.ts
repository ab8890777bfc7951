import { describe, expect, it } from '@jest/globals';
import { newStatementKey, StatementKeyError } from '@hc/exports';
import { TEST_STATEMENT_PUBLIC_KEYSET, TEST_STATEMENT_SIGNING_KEY } from '@hc/test-kit';
import { loadDashboardConfig, statementSigner } from './config.ts';

describe('the statement signing key of the dashboard (docs/adr/0088)', () => {
  it('is optional: without it the dashboard starts and has no signer', () => {
    expect(statementSigner(loadDashboardConfig({}))).toBeUndefined();
  });

  it('signs when the published keys list it as it is', () => {
    const config = loadDashboardConfig({
      STATEMENT_SIGNING_KEY: TEST_STATEMENT_SIGNING_KEY,
      STATEMENT_PUBLIC_KEYSET: TEST_STATEMENT_PUBLIC_KEYSET,
    });
    expect(statementSigner(config)?.keyId).toBe('test-statements-1');
  });

  it('stops the start when the published keys do not list it, under its id or at all', () => {
    const other = newStatementKey('test-statements-1');
    const sameIdOtherKey = { STATEMENT_SIGNING_KEY: TEST_STATEMENT_SIGNING_KEY, STATEMENT_PUBLIC_KEYSET: other.publicKey };
    expect(() => loadDashboardConfig(sameIdOtherKey)).toThrow(StatementKeyError);
    const unlisted = {
      STATEMENT_SIGNING_KEY: newStatementKey('s202612').signingKey,
      STATEMENT_PUBLIC_KEYSET: TEST_STATEMENT_PUBLIC_KEYSET,
    };
    expect(() => loadDashboardConfig(unlisted)).toThrow(
      'STATEMENT_SIGNING_KEY s202612 is not published as it is in STATEMENT_PUBLIC_KEYSET',
    );
  });

  it('stops the start on a key that is not an Ed25519 private key', () => {
    expect(() => loadDashboardConfig({ STATEMENT_SIGNING_KEY: 'k1:bm90IGEga2V5' })).toThrow('is not a DER key in base64');
    expect(() => loadDashboardConfig({ STATEMENT_SIGNING_KEY: TEST_STATEMENT_PUBLIC_KEYSET })).toThrow(StatementKeyError);
  });
});
