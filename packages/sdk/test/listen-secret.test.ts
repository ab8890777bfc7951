// Risk covered: `hosted-checkout listen` making a new secret every run (the shop's .env then breaks),
// sharing one across accounts, keeping it readable by other users, storing the API key itself, or
// leaving half a file behind (issue 44).
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { keptListenSecret, listenSecretName, listenSecretsFile } from '../src/index.ts';

const KEY = 'sk_test_aaaaaaaaaaaaaaaaaaaaaaaa';

describe('the kept listen secret', () => {
  it('lives under $XDG_CONFIG_HOME, else ~/.config', () => {
    expect(listenSecretsFile({ XDG_CONFIG_HOME: '/x/conf' })).toBe('/x/conf/hosted-checkout/listen-secrets.json');
    expect(listenSecretsFile({})).toMatch(/\/\.config\/hosted-checkout\/listen-secrets\.json$/);
  });

  it('is made once per API and key, kept across runs, replaced only by rotate; the file is 0600 and never holds the key', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hc-listen-')), 'hosted-checkout', 'listen-secrets.json');
    const name = listenSecretName('http://127.0.0.1:8080/', KEY);
    const first = keptListenSecret(name, { file });
    expect(first).toMatchObject({ created: true, file, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/) });
    expect(keptListenSecret(name, { file })).toEqual({ ...first, created: false });

    const other = keptListenSecret(listenSecretName('http://127.0.0.1:8080', `${KEY}b`), { file });
    expect(other.secret).not.toBe(first.secret);
    expect(keptListenSecret(listenSecretName('http://127.0.0.1:9090', KEY), { file }).secret).not.toBe(first.secret);

    const rotated = keptListenSecret(name, { file, rotate: true });
    expect(rotated.created).toBe(true);
    expect(rotated.secret).not.toBe(first.secret);
    expect(keptListenSecret(name, { file }).secret).toBe(rotated.secret);
    expect(keptListenSecret(listenSecretName('http://127.0.0.1:8080', `${KEY}b`), { file }).secret).toBe(other.secret);

    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    expect(readdirSync(join(file, '..'))).toEqual(['listen-secrets.json']);
  });
});
