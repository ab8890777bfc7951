import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ENCRYPTION_KEYS_VARIABLE, type EncryptionKey, type Keyring } from './keyring.ts';

/**
 * Which stored value a secret is: its table, column and row. It is bound to the ciphertext as
 * associated data, so a value copied to another row (or column) does not decrypt there.
 */
export interface SecretContext {
  readonly table: string;
  readonly column: string;
  /** The row's identity, e.g. its primary key (and its owner's id). */
  readonly row: string;
}

export type DecryptFailure = 'malformed' | 'unknown-key' | 'rejected';

/** A stored value that does not decrypt. The message names the row and the key id, never the value. */
export class SecretDecryptError extends Error {
  override name = 'SecretDecryptError';
  readonly reason: DecryptFailure;
  /** The key id the value names, when it is sealed (`unknown-key`: the id the keyring lacks). */
  readonly keyId: string | undefined;

  constructor(reason: DecryptFailure, message: string, keyId?: string) {
    super(message);
    this.reason = reason;
    this.keyId = keyId;
  }
}

/** Where an operator reads what to do about a missing key: docs/operations.md, its section and anchor. */
export const MISSING_KEY_RUNBOOK = 'docs/operations.md#a-key-missing-at-start';

/**
 * The message of a value sealed with a key the keyring lacks: the row, the missing key id and the
 * runbook. A service meets it first at its start (the re-encryption opens every value), so it refuses
 * to start with this message rather than fail one signature or sign-in at a time.
 */
function unknownKeyMessage(row: string, keyId: string): string {
  return (
    `${row} is sealed with key "${keyId}", which ${ENCRYPTION_KEYS_VARIABLE} does not list: give the service that key ` +
    `(it may have been removed before everything was re-encrypted, or never been copied here); see ${MISSING_KEY_RUNBOOK}`
  );
}

const UNKNOWN_KEY = new RegExp(`sealed with key "([A-Za-z0-9_-]{1,32})", which ${ENCRYPTION_KEYS_VARIABLE} does not list`, 'g');

/** The key ids that text (a service's log, an error) reports missing, each once, in order of appearance. */
export function missingKeyIdsIn(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(UNKNOWN_KEY), (match) => String(match[1])))];
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** `v1:<keyId>:<iv>:<ciphertext‖tag>`, both base64url without padding. */
const SEALED = /^v1:([A-Za-z0-9_-]{1,32}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{22,})$/;

const where = (context: SecretContext): string => `${context.table}.${context.column} of ${context.row}`;

/** The associated data: the format, the key id and the row, in a form that cannot be split two ways. */
function associatedData(keyId: string, context: SecretContext): Buffer {
  return Buffer.from(JSON.stringify(['hc-secret', VERSION, keyId, context.table, context.column, context.row]), 'utf8');
}

/**
 * Secrets at rest (docs/adr/0042): AES-256-GCM from node:crypto (OpenSSL), a fresh 96-bit IV per
 * value, the key id in the stored value so older keys still decrypt after a rotation, and the row
 * bound as associated data. Only the format around the cipher is ours.
 */
export class SecretBox {
  private readonly keyring: Keyring;

  constructor(keyring: Keyring) {
    this.keyring = keyring;
  }

  /** The id of the key new values are sealed with. */
  get currentKeyId(): string {
    return this.keyring.current.id;
  }

  /** Whether `value` has the sealed format (it may still fail to open). */
  static isSealed(value: string): boolean {
    return SEALED.test(value);
  }

  /** Whether `value` is sealed with the current key (nothing to re-encrypt). */
  isCurrent(value: string): boolean {
    return SEALED.exec(value)?.[1] === this.keyring.current.id;
  }

  seal(plaintext: string, context: SecretContext): string {
    const { id, key } = this.keyring.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(associatedData(id, context));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}:${id}:${iv.toString('base64url')}:${sealed.toString('base64url')}`;
  }

  /** The plaintext of a sealed value, or SecretDecryptError (wrong key, altered value, another row's value). */
  open(stored: string, context: SecretContext): string {
    const parts = SEALED.exec(stored);
    if (!parts) throw new SecretDecryptError('malformed', `${where(context)} is not a sealed secret (v1:<keyId>:<iv>:<ciphertext>)`);
    const [, keyId, iv, body] = parts as unknown as [string, string, string, string];
    const key = this.keyring.keys.find((k) => k.id === keyId);
    if (!key) throw new SecretDecryptError('unknown-key', unknownKeyMessage(where(context), keyId), keyId);
    return decrypt(key, Buffer.from(iv, 'base64url'), Buffer.from(body, 'base64url'), context);
  }

  /**
   * What to store instead of `stored` so that it is sealed with the current key: null when it already
   * is. A plaintext value (from before encryption) must pass `isPlaintext`, so that a damaged value is
   * reported rather than sealed as if it were a secret.
   */
  resealed(stored: string, context: SecretContext, isPlaintext: (value: string) => boolean): string | null {
    if (this.isCurrent(stored)) return null;
    if (SecretBox.isSealed(stored)) return this.seal(this.open(stored, context), context);
    if (!isPlaintext(stored)) throw new SecretDecryptError('malformed', `${where(context)} is neither sealed nor a plaintext secret`);
    return this.seal(stored, context);
  }
}

function decrypt(key: EncryptionKey, iv: Buffer, body: Buffer, context: SecretContext): string {
  if (body.length < TAG_BYTES) throw new SecretDecryptError('malformed', `${where(context)} is too short to be sealed`);
  const decipher = createDecipheriv('aes-256-gcm', key.key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData(key.id, context));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretDecryptError(
      'rejected',
      `${where(context)} does not decrypt with key "${key.id}": a different key under that id, an altered value, or a value copied from another row`,
    );
  }
}
