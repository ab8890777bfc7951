import { describe, expect, it } from '@jest/globals';
import { secretBoxFromEnv } from './from-env.ts';
import { newEncryptionKeyEntry, parseEncryptionKeys, SecretsConfigError } from './keyring.ts';

const key = (byte: number) => Buffer.alloc(32, byte).toString('base64');

describe('SECRETS_ENCRYPTION_KEYS', () => {
  it('takes keyId:base64key entries, the first one current', () => {
    const keyring = parseEncryptionKeys(` k2:${key(2)}, k1:${Buffer.alloc(32, 1).toString('base64url')} `);
    expect(keyring.current.id).toBe('k2');
    expect(keyring.keys.map((k) => k.id)).toEqual(['k2', 'k1']);
    expect(keyring.current.key.symmetricKeySize).toBe(32);
    // Logged by mistake, a key shows no material.
    expect(JSON.stringify(keyring)).not.toContain(key(2));
  });

  it('refuses an empty list, a bad id, a repeated id or a key that is not 32 bytes, without printing the key', () => {
    const refusal = (value: string) => {
      try {
        parseEncryptionKeys(value);
        return 'accepted';
      } catch (error) {
        expect(error).toBeInstanceOf(SecretsConfigError);
        return (error as Error).message;
      }
    };
    expect(refusal(' , ')).toMatch(/lists no key/);
    expect(refusal(key(1))).toMatch(/entry 1 is not keyId:base64key/);
    expect(refusal(`bad id:${key(1)}`)).toMatch(/entry 1: the key id/);
    expect(refusal(`k1:${key(1)},k1:${key(2)}`)).toMatch(/entry 2: key id "k1" is listed twice/);
    const short = Buffer.alloc(16, 7).toString('base64');
    expect(refusal(`k1:${short}`)).toMatch(/entry 1 \(key id "k1"\): the key must be 32 random bytes/);
    expect(refusal(`k1:${short}`)).not.toContain(short);
    expect(refusal(`k1:not base64!`)).toMatch(/32 random bytes/);
  });

  it('makes new entries that parse', () => {
    const entry = newEncryptionKeyEntry('local-1');
    expect(entry).toMatch(/^local-1:[A-Za-z0-9+/]{43}=$/);
    expect(parseEncryptionKeys(entry).current.id).toBe('local-1');
    expect(newEncryptionKeyEntry('local-1')).not.toBe(entry);
  });

  it('a service without the variable refuses to start, saying what to set', () => {
    expect(() => secretBoxFromEnv(undefined)).toThrow(/SECRETS_ENCRYPTION_KEYS is not set/);
    expect(() => secretBoxFromEnv('  ')).toThrow(/SECRETS_ENCRYPTION_KEYS is not set/);
    expect(secretBoxFromEnv(`k1:${key(1)}`).currentKeyId).toBe('k1');
  });
});
