/**
 * The local platform's SECRETS_ENCRYPTION_KEYS (docs/adr/0042): ./scripts/start makes one key the first
 * time and keeps it in the git-ignored local state folder (.local/secrets-encryption-keys, readable by
 * its owner only), so what one start sealed (webhook signing secrets, two-factor seeds) opens at the
 * next. SECRETS_ENCRYPTION_KEYS in the environment wins. A kept file that does not parse is an error,
 * never replaced: a new key could not open what the old one sealed. A cluster's keys come from a
 * Kubernetes Secret (deploy/README.md), never from here.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { newEncryptionKeyEntry, parseEncryptionKeys } from '@hc/secrets';

export interface LocalEncryptionKeys {
  /** The SECRETS_ENCRYPTION_KEYS value to give the services. */
  keys: string;
  /** environment: set by the caller; kept: read from the file; new: made now and saved. */
  origin: 'environment' | 'kept' | 'new';
}

function readKept(stateFile: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(stateFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const keys = text.trim();
  try {
    parseEncryptionKeys(keys);
  } catch (error) {
    throw new Error(`${stateFile}: ${(error as Error).message} (fix it, or move it away only if nothing sealed with it matters)`, {
      cause: error,
    });
  }
  return keys;
}

export function localEncryptionKeys(stateFile: string, env: NodeJS.ProcessEnv = process.env): LocalEncryptionKeys {
  const fromEnv = env['SECRETS_ENCRYPTION_KEYS']?.trim();
  if (fromEnv) return { keys: fromEnv, origin: 'environment' };
  const kept = readKept(stateFile);
  if (kept) return { keys: kept, origin: 'kept' };
  // A fresh id each time, so that a key lost with its file is reported as unknown rather than as wrong.
  const keys = newEncryptionKeyEntry(`local-${Date.now().toString(36)}`);
  mkdirSync(dirname(stateFile), { recursive: true, mode: 0o700 });
  const partial = `${stateFile}.${process.pid}.tmp`;
  writeFileSync(partial, `${keys}\n`, { mode: 0o600 });
  renameSync(partial, stateFile);
  return { keys, origin: 'new' };
}
