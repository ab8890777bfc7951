// Risk covered: the local platform starting without a key for secrets at rest, making a new key at
// every start (so what the last start sealed no longer opens), keeping it readable by others, or
// replacing a damaged key file (losing every sealed secret silently).
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { parseEncryptionKeys } from '@hc/secrets';
import { localEncryptionKeys } from '../src/local-encryption-keys.ts';

const stateDir = mkdtempSync(join(tmpdir(), 'hc-local-keys-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

describe('the encryption key of ./scripts/start', () => {
  it('is made once, kept in .local/ readable by its owner only, and the same at the next start', () => {
    const file = join(stateDir, '.local', 'secrets-encryption-keys');
    const first = localEncryptionKeys(file, {});
    expect(first.origin).toBe('new');
    expect(parseEncryptionKeys(first.keys).current.id).toMatch(/^local-[0-9a-z]+$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(stateDir, '.local')).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.keys);
    expect(localEncryptionKeys(file, {})).toEqual({ keys: first.keys, origin: 'kept' });
  });

  it('takes SECRETS_ENCRYPTION_KEYS from the environment when set', () => {
    const keys = `mine:${Buffer.alloc(32, 5).toString('base64')}`;
    expect(localEncryptionKeys(join(stateDir, 'unused'), { SECRETS_ENCRYPTION_KEYS: keys })).toEqual({ keys, origin: 'environment' });
  });

  it('refuses a damaged key file rather than replacing it', () => {
    const file = join(stateDir, 'damaged');
    writeFileSync(file, 'local-1:not-a-key\n');
    expect(() => localEncryptionKeys(file, {})).toThrow(/damaged: .*32 random bytes/);
    expect(readFileSync(file, 'utf8')).toBe('local-1:not-a-key\n');
  });
});
