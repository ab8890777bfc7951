import { describe, expect, it } from '@jest/globals';
import { parseEncryptionKeys } from './keyring.ts';
import { missingKeyIdsIn, SecretBox, SecretDecryptError, type SecretContext } from './sealed.ts';

const K1 = `k1:${Buffer.alloc(32, 1).toString('base64')}`;
const K1_OTHER_MATERIAL = `k1:${Buffer.alloc(32, 9).toString('base64')}`;
const K2 = `k2:${Buffer.alloc(32, 2).toString('base64url')}`;
const box = (keys: string) => new SecretBox(parseEncryptionKeys(keys));

const ROW_A: SecretContext = { table: 'endpoint_secrets', column: 'secret', row: 'we_A/1' };
const ROW_B: SecretContext = { table: 'endpoint_secrets', column: 'secret', row: 'we_B/2' };
const SECRET = 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LWZvci10ZXN0cy0wMDAwMDA=';

/** The reason a value fails to open, or 'opened'. */
function failure(open: () => string): string {
  try {
    open();
    return 'opened';
  } catch (error) {
    if (error instanceof SecretDecryptError) return error.reason;
    throw error;
  }
}

/** `sealed` with the character at `index` (counted from the end when negative) changed. */
function altered(sealed: string, index: number): string {
  const at = index < 0 ? sealed.length + index : index;
  const swapped = sealed[at] === 'A' ? 'B' : 'A';
  return sealed.slice(0, at) + swapped + sealed.slice(at + 1);
}

describe('SecretBox (AES-256-GCM, key id, row as associated data)', () => {
  it('seals into v1:<keyId>:<iv>:<ciphertext+tag>, a fresh IV each time, and opens back', () => {
    const secrets = box(K1);
    const sealed = secrets.seal(SECRET, ROW_A);
    expect(sealed).toMatch(/^v1:k1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22,}$/);
    expect(sealed).not.toContain('whsec_');
    expect(secrets.seal(SECRET, ROW_A)).not.toBe(sealed);
    expect(secrets.open(sealed, ROW_A)).toBe(SECRET);
    expect(SecretBox.isSealed(sealed)).toBe(true);
    expect(SecretBox.isSealed(SECRET)).toBe(false);
    expect(SecretBox.isSealed('JBSWY3DPEHPK3PXP')).toBe(false);
  });

  it('refuses a different key under the same id', () => {
    const sealed = box(K1).seal(SECRET, ROW_A);
    expect(failure(() => box(K1_OTHER_MATERIAL).open(sealed, ROW_A))).toBe('rejected');
    expect(() => box(K1_OTHER_MATERIAL).open(sealed, ROW_A)).toThrow(/does not decrypt with key "k1"/);
  });

  it('refuses a key id the keyring does not list, naming it and the runbook (issue 47, item 8)', () => {
    const sealed = box(K1).seal(SECRET, ROW_A);
    expect(failure(() => box(K2).open(sealed, ROW_A))).toBe('unknown-key');
    expect(() => box(K2).open(sealed, ROW_A)).toThrow(/sealed with key "k1", which SECRETS_ENCRYPTION_KEYS does not list/);
    expect(() => box(K2).open(sealed, ROW_A)).toThrow(/see docs\/operations\.md#a-key-missing-at-start$/);
    let caught: unknown;
    try {
      box(K2).open(sealed, ROW_A);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ reason: 'unknown-key', keyId: 'k1' });
    // What the start command reads in a service's log to say which key is missing.
    expect(missingKeyIdsIn(`${(caught as Error).message}\n${(caught as Error).message}\nother line`)).toEqual(['k1']);
  });

  it('refuses a tampered ciphertext, tag, IV or key id', () => {
    const secrets = box(`${K1},${K2}`);
    const sealed = secrets.seal(SECRET, ROW_A);
    const ivStart = 'v1:k1:'.length;
    const bodyStart = ivStart + 17;
    expect(failure(() => secrets.open(altered(sealed, bodyStart + 3), ROW_A))).toBe('rejected'); // ciphertext
    expect(failure(() => secrets.open(altered(sealed, -3), ROW_A))).toBe('rejected'); // tag
    expect(failure(() => secrets.open(altered(sealed, ivStart + 2), ROW_A))).toBe('rejected'); // IV
    expect(failure(() => secrets.open(sealed.replace('v1:k1:', 'v1:k2:'), ROW_A))).toBe('rejected'); // key id
    expect(failure(() => secrets.open(sealed.slice(0, -4), ROW_A))).toBe('rejected'); // truncated
    expect(failure(() => secrets.open('v1:k1:short', ROW_A))).toBe('malformed');
    expect(failure(() => secrets.open(SECRET, ROW_A))).toBe('malformed');
  });

  it('refuses a value copied to another row or another column (the row is associated data)', () => {
    const secrets = box(K1);
    const sealed = secrets.seal(SECRET, ROW_A);
    expect(failure(() => secrets.open(sealed, ROW_B))).toBe('rejected');
    expect(failure(() => secrets.open(sealed, { ...ROW_A, column: 'other' }))).toBe('rejected');
    expect(failure(() => secrets.open(sealed, { ...ROW_A, table: 'dashboard_users' }))).toBe('rejected');
    expect(() => secrets.open(sealed, ROW_B)).toThrow(/endpoint_secrets\.secret of we_B\/2 .*copied from another row/);
  });

  it('after a rotation the old key still opens, new values use the new key, and resealed() moves old ones over', () => {
    const before = box(K1);
    const old = before.seal(SECRET, ROW_A);
    const after = box(`${K2},${K1}`);
    expect(after.currentKeyId).toBe('k2');
    expect(after.open(old, ROW_A)).toBe(SECRET);
    expect(after.isCurrent(old)).toBe(false);
    const moved = after.resealed(old, ROW_A, () => false)!;
    expect(moved).toMatch(/^v1:k2:/);
    expect(after.open(moved, ROW_A)).toBe(SECRET);
    expect(after.resealed(moved, ROW_A, () => false)).toBeNull();
    expect(failure(() => before.open(moved, ROW_A))).toBe('unknown-key');
  });

  it('resealed() encrypts a plaintext value from before encryption, and refuses one that is neither', () => {
    const secrets = box(K1);
    const isSigningSecret = (value: string) => value.startsWith('whsec_');
    const sealed = secrets.resealed(SECRET, ROW_A, isSigningSecret)!;
    expect(secrets.open(sealed, ROW_A)).toBe(SECRET);
    expect(failure(() => secrets.resealed('garbage', ROW_A, isSigningSecret) ?? '')).toBe('malformed');
  });

  it('never puts key material or the plaintext in an error message', () => {
    const sealed = box(K1).seal(SECRET, ROW_A);
    for (const attempt of [() => box(K1_OTHER_MATERIAL).open(sealed, ROW_A), () => box(K1).open(sealed, ROW_B)]) {
      const message = (() => {
        try {
          attempt();
          return '';
        } catch (error) {
          return (error as Error).message;
        }
      })();
      expect(message).not.toContain(SECRET);
      expect(message).not.toContain(K1.slice(3));
      expect(message).not.toContain(K1_OTHER_MATERIAL.slice(3));
    }
  });
});
