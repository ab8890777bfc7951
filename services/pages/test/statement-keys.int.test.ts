/**
 * GET /.well-known/hc-statement-keys.json: the public keys an accountant checks a statement with. The
 * risk: a published set that misses a key a statement names (a retired one), keys in a form a
 * verifier cannot read, or a document that leaks anything but public keys. The real pages process
 * over HTTP, read by the SDK's verifier, which checks a statement the platform's writer signed.
 */
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadStatementKeys, readStatement, verifyStatementSignature } from '@hosted-checkout/sdk';
import { newStatementKey, parseSigningKey, writeSignedJson } from '@hc/exports';
import { createLogger } from '@hc/logging';
import { TEST_STATEMENT_PUBLIC_KEYSET, TEST_STATEMENT_SIGNING_KEY } from '@hc/test-kit';
import { loadPagesConfig } from '../src/config.ts';
import { startPages, type RunningPages } from '../src/pages-server.ts';

const retired = newStatementKey('retired-2025');
let pages: RunningPages;
let unpublished: RunningPages;

beforeAll(async () => {
  // No service is dialled for this document: checkout's address is never used.
  const start = (keys?: string) =>
    startPages(
      loadPagesConfig({
        PAGES_PORT: '0',
        CHECKOUT_GRPC_ADDRESS: '127.0.0.1:9',
        LOG_LEVEL: 'silent',
        ...(keys ? { STATEMENT_PUBLIC_KEYSET: keys } : {}),
      }),
      createLogger('pages-test', { level: 'silent' }),
    );
  pages = await start(`${TEST_STATEMENT_PUBLIC_KEYSET},${retired.publicKey}`);
  unpublished = await start();
}, 60_000);

afterAll(async () => {
  await pages?.stop();
  await unpublished?.stop();
});

async function signed(signingKey: string): Promise<Buffer> {
  const out = new PassThrough();
  const header = { account: 'acct_1', mode: 'live' as const, from: '2026-05-01', to: '2026-05-31', created: new Date() };
  const [bytes] = await Promise.all([buffer(out), writeSignedJson((async function* () {})(), header, parseSigningKey(signingKey), out)]);
  return bytes;
}

describe('the published statement keys', () => {
  it('are a JWK Set of every listed key, current and retired, public parts only, readable from any origin', async () => {
    const response = await fetch(`${pages.url}/.well-known/hc-statement-keys.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const document = (await response.json()) as { keys: Record<string, string>[] };
    expect(document.keys.map((key) => key['kid'])).toEqual(['test-statements-1', 'retired-2025']);
    for (const key of document.keys) expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
  });

  it('verify a statement signed with the current key and one signed with a retired key', async () => {
    const keys = await loadStatementKeys(`${pages.url}/.well-known/hc-statement-keys.json`);
    expect(verifyStatementSignature(readStatement(await signed(TEST_STATEMENT_SIGNING_KEY)), keys)).toEqual({
      ok: true,
      keyId: 'test-statements-1',
    });
    expect(verifyStatementSignature(readStatement(await signed(retired.signingKey)), keys)).toEqual({ ok: true, keyId: 'retired-2025' });
  });

  it('are not found where none are configured', async () => {
    expect((await fetch(`${unpublished.url}/.well-known/hc-statement-keys.json`)).status).toBe(404);
  });
});
