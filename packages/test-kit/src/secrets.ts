/**
 * SECRETS_ENCRYPTION_KEYS for tests (@hc/secrets): one fixed, published key ("hc-test-only-secrets-key-0000001"),
 * so a test can read what a service sealed. Never a deployment's key: it is in the repository.
 */
export const TEST_SECRETS_ENCRYPTION_KEYS = 'test-1:aGMtdGVzdC1vbmx5LXNlY3JldHMta2V5LTAwMDAwMDE=';
