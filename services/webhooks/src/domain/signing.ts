import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { unixSeconds } from '@hc/conversions';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): each secret signs
 * `<webhook-id>.<webhook-timestamp>.<body>` with HMAC-SHA256, giving `v1,<base64>`. During a secret
 * rotation both the new and the old secret sign, space-separated in one header; a receiver accepts
 * the delivery when any signature matches a secret it knows.
 */

/** A new signing secret: `whsec_` and the base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three signature headers of one attempt, `secrets` newest first. */
export function signatureHeaders(secrets: readonly string[], eventId: string, attemptAt: Date, body: string): SignatureHeaders {
  if (secrets.length === 0) throw new Error(`no signing secret for the delivery of ${eventId}`);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(unixSeconds(attemptAt)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(eventId, attemptAt, body)).join(' '),
  };
}
