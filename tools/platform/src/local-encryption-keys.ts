/**
 * The local platform's SECRETS_ENCRYPTION_KEYS (docs/adr/0042, docs/adr/0083): ./scripts/start makes
 * one key the first time and keeps it in the local state database of the cluster (local-state.ts),
 * beside the webhook signing secrets, two-factor seeds and invitation links it seals, so every clone,
 * worktree or `git clean`ed copy that starts on those databases opens what an earlier start sealed.
 * SECRETS_ENCRYPTION_KEYS in the environment wins. A clone that kept a key in its own
 * .local/secrets-encryption-keys (before ADR 0083) has it merged into the keyring as an older key, so
 * values it sealed still open and are re-encrypted with the current key at the services' start. A
 * kept keyring or file that does not parse is an error, never replaced: a new key could not open what
 * the old one sealed. A cluster's keys come from a Kubernetes Secret (deploy/README.md), never from here.
 */
import { readFileSync } from 'node:fs';
import { newEncryptionKeyEntry, parseEncryptionKeys } from '@hc/secrets';
import { CLUSTER_SCOPE, type LocalState } from './local-state.ts';

export const KEYRING_NAME = 'secrets-encryption-keys';

export interface LocalEncryptionKeys {
  /** The SECRETS_ENCRYPTION_KEYS value to give the services. */
  keys: string;
  /**
   * environment: set by the caller; kept: the cluster's keyring as it was; new: made now and kept;
   * imported: this clone's .local/ key added to the cluster's keyring now.
   */
  origin: 'environment' | 'kept' | 'new' | 'imported';
}

/** The entries of a key list, checked (messages name `where`, never key material). */
function entriesOf(keys: string, where: string): string[] {
  try {
    parseEncryptionKeys(keys);
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message} (fix it, or remove it only if nothing sealed with it matters)`, {
      cause: error,
    });
  }
  return keys
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** The key a clone kept in its own .local/ before ADR 0083, if any. */
function readCloneFile(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return entriesOf(text.trim(), file).join(',');
}

const idOf = (entry: string): string => entry.slice(0, entry.indexOf(':'));

export async function localEncryptionKeys(
  state: LocalState,
  cloneFile: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LocalEncryptionKeys> {
  const fromEnv = env['SECRETS_ENCRYPTION_KEYS']?.trim();
  if (fromEnv) return { keys: fromEnv, origin: 'environment' };
  const fromClone = readCloneFile(cloneFile);
  let origin: LocalEncryptionKeys['origin'] = 'kept';
  const keys = await state.update(CLUSTER_SCOPE, KEYRING_NAME, (kept) => {
    const entries = kept === undefined ? [] : entriesOf(kept, `${state.url} (${KEYRING_NAME})`);
    // The clone's keys after the kept ones: the kept current key stays current. An id already listed
    // is not added twice (ids are fresh per key, `local-<time>`).
    const added = (fromClone === undefined ? [] : fromClone.split(',')).filter((entry) => !entries.some((e) => idOf(e) === idOf(entry)));
    if (added.length > 0) {
      origin = 'imported';
      return [...entries, ...added].join(',');
    }
    if (entries.length > 0) return undefined;
    origin = 'new';
    // A fresh id each time, so that a lost keyring is reported as an unknown key rather than a wrong one.
    return newEncryptionKeyEntry(`local-${Date.now().toString(36)}`);
  });
  return { keys: String(keys), origin };
}
