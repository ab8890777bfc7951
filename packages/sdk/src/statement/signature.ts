import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ReadStatement } from './formats.ts';
import { sealBytes, StatementFormatError } from './seal.ts';

/** The platform's statement keys by key id: the current one and every older one kept for old statements. */
export type StatementKeys = ReadonlyMap<string, KeyObject>;

/** Where the platform publishes them, on its public address. */
export const STATEMENT_KEYS_PATH = '/.well-known/hc-statement-keys.json';

/** A JWK Set (RFC 7517) of Ed25519 keys (RFC 8037: `kty` OKP, `crv` Ed25519, `x`), each with its `kid`. */
export function statementKeysFromJwks(document: unknown): StatementKeys {
  const list = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) throw new StatementFormatError('the keys document has no "keys" list (a JWK Set)');
  const keys = new Map<string, KeyObject>();
  for (const jwk of list as Record<string, unknown>[]) {
    if (jwk['kty'] !== 'OKP' || jwk['crv'] !== 'Ed25519' || typeof jwk['kid'] !== 'string' || typeof jwk['x'] !== 'string') continue;
    keys.set(jwk['kid'], createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk['x'] }, format: 'jwk' }));
  }
  if (keys.size === 0) throw new StatementFormatError('the keys document lists no Ed25519 key with a kid');
  return keys;
}

/** The keys from a URL (the platform's well-known document) or a file (one kept, or handed over). */
export async function loadStatementKeys(source: string, fetchImpl: typeof fetch = fetch): Promise<StatementKeys> {
  if (/^https?:\/\//.test(source)) {
    const answer = await fetchImpl(source, { signal: AbortSignal.timeout(15_000), headers: { accept: 'application/json' } });
    if (!answer.ok) throw new StatementFormatError(`${source} answered ${answer.status}`);
    return statementKeysFromJwks(await answer.json());
  }
  return statementKeysFromJwks(JSON.parse(await readFile(source, 'utf8')));
}

export type SignatureVerdict =
  { readonly ok: true; readonly keyId: string } | { readonly ok: false; readonly keyId: string; readonly problem: string };

/**
 * Whether the statement is what the platform signed: its key id is a published key, and Ed25519 over
 * the seal — with the SHA-256 of the body as read now — verifies. A changed amount changes the body's
 * hash, so the seal's bytes are not those signed.
 */
export function verifyStatementSignature(statement: ReadStatement, keys: StatementKeys): SignatureVerdict {
  const keyId = statement.seal.key_id;
  const key = keys.get(keyId);
  if (!key) return { ok: false, keyId, problem: `key ${keyId} is not among the published keys (${[...keys.keys()].join(', ')})` };
  const signature = Buffer.from(statement.signature, 'base64url');
  if (signature.length !== 64 || !verify(null, sealBytes(statement.seal), key, signature)) {
    const changed = statement.claimedSha256 !== statement.seal.sha256;
    return {
      ok: false,
      keyId,
      problem: changed
        ? `the statement was changed after it was signed (its content's SHA-256 is ${statement.seal.sha256}, the signature's ${statement.claimedSha256})`
        : `the signature does not verify with key ${keyId}: not signed by the platform's key, or its header was changed`,
    };
  }
  return { ok: true, keyId };
}
