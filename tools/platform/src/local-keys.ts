/**
 * Prints the local keyring of secrets at rest (docs/adr/0083), for running a service alone beside
 * ./scripts/start's databases: SECRETS_ENCRYPTION_KEYS="$(node tools/platform/src/local-keys.ts)".
 * Exits 1 when no start has made one yet. Local mode only, like the keyring.
 */
import { loadGatewayConfig } from '@hc/gateway';
import { KEYRING_NAME } from './local-encryption-keys.ts';
import { CLUSTER_SCOPE, databaseScope, openLocalState, stateDatabaseUrl } from './local-state.ts';

const state = await openLocalState(stateDatabaseUrl(process.env, loadGatewayConfig().GATEWAY_DATABASE_URL));
try {
  const keys = await state.get(CLUSTER_SCOPE, KEYRING_NAME);
  if (keys === undefined) {
    process.stderr.write(`no local keyring in ${databaseScope(state.url)} yet: ./scripts/start makes one\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`${keys}\n`);
  }
} finally {
  await state.close();
}
