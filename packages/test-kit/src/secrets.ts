/**
 * SECRETS_ENCRYPTION_KEYS for tests (@hc/secrets): one fixed, published key ("hc-test-only-secrets-key-0000001"),
 * so a test can read what a service sealed. Never a deployment's key: it is in the repository.
 */
export const TEST_SECRETS_ENCRYPTION_KEYS = 'test-1:aGMtdGVzdC1vbmx5LXNlY3JldHMta2V5LTAwMDAwMDE=';

/**
 * The statement signing key for tests (docs/adr/0088) and its published public key: fixed, so a test
 * can check what a dashboard signed. Never a deployment's key: it is in the repository.
 */
export const TEST_STATEMENT_SIGNING_KEY = 'test-statements-1:MC4CAQAwBQYDK2VwBCIEIEYNDWbM+3wfBggMReh3EXNSB6rTnRHo6SmPowrBLvtN';
export const TEST_STATEMENT_PUBLIC_KEYSET = 'test-statements-1:MCowBQYDK2VwAyEAjThhtnj1wpGzbx4tM1p5vyuYaPYEYS8bduyvGo8ecpU=';
