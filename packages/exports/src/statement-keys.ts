import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

/**
 * The platform's statement keys (docs/adr/0088). The signing key is a secret, `keyId:base64` of its
 * PKCS#8 DER (`openssl genpkey -algorithm ed25519 -outform DER | base64 -w0`), given to the dashboard
 * and the operator CLI only. The public keys are not: `keyId:base64` of each SPKI DER
 * (`openssl pkey -inform DER -pubout -outform DER | base64 -w0`), comma-separated, the current one and
 * every retired one, published by the pages as a JWK Set so old statements still verify.
 */
export interface StatementSigner {
  readonly keyId: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

export class StatementKeyError extends Error {
  override readonly name = 'StatementKeyError';
}

const KEY_ID = /^[A-Za-z0-9_.-]{1,64}$/;

function entry(text: string, variable: string): { keyId: string; der: Buffer } {
  const at = text.indexOf(':');
  const keyId = text.slice(0, at).trim();
  if (at <= 0 || !KEY_ID.test(keyId))
    throw new StatementKeyError(`${variable}: each entry is keyId:base64 (key id 1 to 64 of A-Z a-z 0-9 _ . -)`);
  return { keyId, der: Buffer.from(text.slice(at + 1).trim(), 'base64') };
}

function ed25519(make: () => KeyObject, variable: string, keyId: string): KeyObject {
  let key: KeyObject;
  try {
    key = make();
  } catch {
    throw new StatementKeyError(`${variable}: key ${keyId} is not a DER key in base64`);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new StatementKeyError(`${variable}: key ${keyId} is ${key.asymmetricKeyType ?? 'not asymmetric'}, not Ed25519`);
  return key;
}

/** STATEMENT_SIGNING_KEY: the key that signs statements now, with its id. */
export function parseSigningKey(value: string, variable = 'STATEMENT_SIGNING_KEY'): StatementSigner {
  const { keyId, der } = entry(value.trim(), variable);
  const privateKey = ed25519(() => createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }), variable, keyId);
  return { keyId, privateKey, publicKey: createPublicKey(privateKey) };
}

/** STATEMENT_PUBLIC_KEYSET: every key a statement may have been signed with, by id. */
export function parsePublicKeys(value: string, variable = 'STATEMENT_PUBLIC_KEYSET'): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const text of value.split(',').filter((part) => part.trim() !== '')) {
    const { keyId, der } = entry(text.trim(), variable);
    if (keys.has(keyId)) throw new StatementKeyError(`${variable}: key id ${keyId} is listed twice`);
    keys.set(
      keyId,
      ed25519(() => createPublicKey({ key: der, format: 'der', type: 'spki' }), variable, keyId),
    );
  }
  return keys;
}

/** A key's public entry, as STATEMENT_PUBLIC_KEYSET lists it. */
export function publicKeyEntry(keyId: string, publicKey: KeyObject): string {
  return `${keyId}:${publicKey.export({ format: 'der', type: 'spki' }).toString('base64')}`;
}

/** A new key pair: the secret STATEMENT_SIGNING_KEY and its STATEMENT_PUBLIC_KEYSET entry. */
export function newStatementKey(keyId: string): { signingKey: string; publicKey: string } {
  if (!KEY_ID.test(keyId)) throw new StatementKeyError(`key id ${keyId}: 1 to 64 of A-Z a-z 0-9 _ . -`);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    signingKey: `${keyId}:${privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')}`,
    publicKey: publicKeyEntry(keyId, publicKey),
  };
}

/** The published document: a JWK Set (RFC 7517) of Ed25519 keys (RFC 8037), the current one first. */
export function statementKeysDocument(keys: ReadonlyMap<string, KeyObject>): { keys: Record<string, string>[] } {
  return {
    keys: [...keys].map(([kid, key]) => {
      const jwk = key.export({ format: 'jwk' });
      return { kty: 'OKP', crv: 'Ed25519', x: String(jwk.x), kid, use: 'sig', alg: 'EdDSA' };
    }),
  };
}
