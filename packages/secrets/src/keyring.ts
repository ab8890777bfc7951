import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

/** The environment variable every service that keeps secrets at rest reads its keys from. */
export const ENCRYPTION_KEYS_VARIABLE = 'SECRETS_ENCRYPTION_KEYS';

/** A key id: letters, digits, `_` and `-` (never `:` or `,`, which separate the parts). */
export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
const KEY_BYTES = 32;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** A refused key list. Messages name the entry and its id, never key material. */
export class SecretsConfigError extends Error {
  override name = 'SecretsConfigError';
}

export interface EncryptionKey {
  readonly id: string;
  /** A KeyObject, so that logging it by mistake prints no key material. */
  readonly key: KeyObject;
}

/** The keys a service decrypts with; the first one (current) is the one it encrypts with. */
export interface Keyring {
  readonly current: EncryptionKey;
  readonly keys: readonly EncryptionKey[];
}

/**
 * Parses `keyId:base64key[,keyId:base64key…]` (SECRETS_ENCRYPTION_KEYS): each key is 32 random
 * bytes in base64 (standard or URL alphabet); ids are unique. The first key encrypts; every key
 * listed decrypts, so an old key stays listed until nothing is sealed with it any more.
 */
export function parseEncryptionKeys(value: string): Keyring {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new SecretsConfigError(`${ENCRYPTION_KEYS_VARIABLE} lists no key`);
  const keys: EncryptionKey[] = [];
  entries.forEach((entry, index) => {
    const at = `${ENCRYPTION_KEYS_VARIABLE} entry ${index + 1}`;
    const colon = entry.indexOf(':');
    if (colon < 0) throw new SecretsConfigError(`${at} is not keyId:base64key`);
    const id = entry.slice(0, colon);
    const encoded = entry.slice(colon + 1);
    if (!KEY_ID_PATTERN.test(id)) throw new SecretsConfigError(`${at}: the key id must be 1 to 32 of A-Z a-z 0-9 _ -`);
    if (keys.some((key) => key.id === id)) throw new SecretsConfigError(`${at}: key id "${id}" is listed twice`);
    const bytes = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
    if (bytes.length !== KEY_BYTES) {
      throw new SecretsConfigError(`${at} (key id "${id}"): the key must be ${KEY_BYTES} random bytes in base64 (openssl rand -base64 32)`);
    }
    keys.push({ id, key: createSecretKey(bytes) });
    bytes.fill(0);
  });
  return { current: keys[0]!, keys };
}

/** A new key list entry, `id:base64key` with 32 random bytes (what `openssl rand -base64 32` gives). */
export function newEncryptionKeyEntry(id: string): string {
  if (!KEY_ID_PATTERN.test(id)) throw new SecretsConfigError(`key id "${id}" must be 1 to 32 of A-Z a-z 0-9 _ -`);
  return `${id}:${randomBytes(KEY_BYTES).toString('base64')}`;
}
