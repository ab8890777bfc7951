/**
 * The local data and what is kept beside it (docs/adr/0083): ./scripts/start opens the local state
 * database, drops this platform's databases first with `--reset-local-data`, migrates them, and takes
 * the cluster's keyring for secrets at rest. When the data and the keys part ways anyway, it says
 * which key is missing and what the choices are.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { databaseName, dropDatabase, ensureDatabase, migrateDatabase } from '@hc/db';
import { MISSING_KEY_RUNBOOK, missingKeyIdsIn } from '@hc/secrets';
import { localEncryptionKeys, type LocalEncryptionKeys } from './local-encryption-keys.ts';
import { databaseScope, openLocalState, type LocalState } from './local-state.ts';

/** One of the platform's databases: the service that owns it and its URL. */
export interface PlatformDatabase {
  service: string;
  url: string;
}

/** The clone's own files about the data, from before ADR 0083: they go with the data. */
const CLONE_DATA_FILES = ['demo-merchant.json', 'demo-notifications.json'];

/**
 * Drops every database of this platform and forgets the state kept for them (the demo key, the demo
 * mail settings' marker). The cluster's keyring stays: other platforms on the cluster may need it,
 * and it opens nothing once these databases are gone.
 */
export async function resetLocalData(
  databases: readonly PlatformDatabase[],
  state: LocalState,
  stateDir: string,
  say: (line: string) => void,
): Promise<void> {
  for (const { service, url } of databases) {
    await dropDatabase(url);
    say(`--reset-local-data: dropped the ${service} database (${databaseScope(url)})`);
  }
  const forgotten = await state.forget(databases.map(({ url }) => databaseScope(url)));
  for (const file of CLONE_DATA_FILES) rmSync(join(stateDir, file), { force: true });
  say(`--reset-local-data: forgot ${forgotten} kept value(s) about them in ${databaseName(state.url)}; starting afresh`);
}

/**
 * Opens the local state, resets the databases if asked, applies every service's migrations and takes
 * the keys of secrets at rest (the cluster's keyring, kept beside the data, so every clone has it).
 */
export async function prepareLocalData(options: {
  databases: readonly (PlatformDatabase & { migrations: string })[];
  stateUrl: string;
  /** The clone's .local/, where an older start may have left a key. */
  stateDir: string;
  reset: boolean;
  say: (line: string) => void;
}): Promise<{ state: LocalState; encryption: LocalEncryptionKeys }> {
  const { databases, stateDir, say } = options;
  const state = await openLocalState(options.stateUrl);
  if (options.reset) await resetLocalData(databases, state, stateDir, say);
  for (const { service, url, migrations } of databases) {
    await ensureDatabase(url);
    const applied = await migrateDatabase(url, migrations);
    say(`${service} database ${applied.length ? `migrated (${applied.join(', ')})` : 'up to date'}`);
  }
  const encryption = await localEncryptionKeys(state, join(stateDir, 'secrets-encryption-keys'));
  const keptIn = `the local state database (${databaseScope(state.url)})`;
  const origin = {
    environment: 'from SECRETS_ENCRYPTION_KEYS',
    kept: `kept in ${keptIn}`,
    new: `new, kept in ${keptIn}`,
    imported: `this clone's .local/secrets-encryption-keys added to the keyring kept in ${keptIn}`,
  };
  say(`encryption key of secrets at rest: ${origin[encryption.origin]}`);
  return { state, encryption };
}

/**
 * When a process was given up: if its log says it met values sealed with a key it was not given,
 * the sentence that says so and what to do; otherwise undefined.
 */
export function missingKeyAdvice(service: string, log: string, keysFrom: 'environment' | 'local'): string | undefined {
  const ids = missingKeyIdsIn(log);
  if (ids.length === 0) return undefined;
  const which = ids.map((id) => `"${id}"`).join(', ');
  const given = keysFrom === 'environment' ? 'SECRETS_ENCRYPTION_KEYS in your environment' : 'the local keyring';
  return (
    `${service} cannot start: its database holds secrets sealed with key ${which}, which ${given} does not have ` +
    `(the key was lost, or the databases were filled by a platform with other keys). Either start with that key ` +
    `(SECRETS_ENCRYPTION_KEYS=<a keyring listing it> ./scripts/start, or start once from an older clone whose ` +
    `.local/secrets-encryption-keys has it: it is taken over; ${MISSING_KEY_RUNBOOK}), ` +
    `or, if nothing in the local databases matters, ./scripts/start --reset-local-data drops them and starts afresh.`
  );
}
