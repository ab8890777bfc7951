import { createHash } from 'node:crypto';
import { ApiError } from '@hc/errors';

/** How long a key is remembered, per account and mode. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The Idempotency-Key header: 1 to 120 printable ASCII characters, not blank. Never truncated:
 * a key that breaks a rule is refused whole. Absent means "no idempotency".
 */
export function idempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (header.length < 1 || header.length > 120 || !/^[\x20-\x7E]+$/.test(header) || header.trim() === '') {
    throw new ApiError('invalid_idempotency_key');
  }
  return header;
}

/** JSON with object keys sorted at every depth: metadata key order never makes two bodies differ. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The /v1 creates an Idempotency-Key makes idempotent (every one of them). A key is remembered per
 * account and mode, not per create: the same key sent to another create is another request, so
 * `idempotency_conflict`, never the first create's object.
 */
export type IdempotentCreate = 'checkout_session' | 'payment_link' | 'webhook_endpoint';

/**
 * Fingerprint of a create: which create, and its body (absent and null fields are the same request).
 * A checkout session's is its body alone, as it was when sessions were the only idempotent create, so
 * the records that gateways of earlier releases wrote still match their retries.
 */
export function requestHash(create: IdempotentCreate, body: Readonly<Record<string, unknown>>): string {
  const present = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null && v !== undefined));
  const named = create === 'checkout_session' ? canonicalJson(present) : `${create}\n${canonicalJson(present)}`;
  return createHash('sha256').update(named).digest('hex');
}
