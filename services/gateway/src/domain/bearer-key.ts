import { createHash } from 'node:crypto';

/**
 * The secret API key as a request presents it: "Bearer sk_test_…" or "Bearer sk_live_…" followed by
 * 32 base62 characters. Keys are made and stored (hashed) by the accounts context (docs/adr/0085); the
 * gateway only recognises one and looks it up by its sha256, the hash accounts stores.
 */
const KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{32}$/;

export function isWellFormedApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/** sha256 of the whole key, hex: what KeyDirectoryService.FindKeyByHash takes. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The bearer token of an Authorization header value, or undefined when the header is not "Bearer <token>". */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
  return match?.[1];
}
