import { Webhook, WebhookVerificationError as LibraryError } from 'standardwebhooks';
import type { WebhookEvent } from './types.ts';

export type WebhookVerificationCode = 'parsed_body' | 'missing_headers' | 'invalid_signature' | 'stale_timestamp' | 'invalid_body';

/** Why a delivery was refused; answer it with a 400 and do not act on the body. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly code: WebhookVerificationCode;
  constructor(code: WebhookVerificationCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** Node's req.headers, a fetch Headers, or a plain record. */
export type HeadersLike = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

const SIGNED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function headerValues(headers: HeadersLike): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of SIGNED_HEADERS) {
    let value: string | readonly string[] | null | undefined;
    if (headers instanceof Headers) value = headers.get(name);
    else value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    const text = typeof value === 'string' ? value : value?.[0];
    if (!text) throw new WebhookVerificationError('missing_headers', `The ${name} header is missing: is this a webhook delivery?`);
    values[name] = text;
  }
  return values;
}

/**
 * Checks a delivery per Standard Webhooks (HMAC-SHA256 over id, timestamp and the body exactly as
 * received; a timestamp more than 5 minutes off is refused) and returns the event, typed. The body
 * must be the raw bytes or text: a framework that parsed the JSON first changed what was signed, so
 * a parsed object is refused outright rather than re-serialized (the most common webhook bug).
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: HeadersLike, secret: string): WebhookEvent {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new WebhookVerificationError(
      'parsed_body',
      'webhooks.verify needs the raw request body (a string or Buffer), not a parsed object: with Express, ' +
        "use express.raw({ type: 'application/json' }) on the webhook route instead of express.json().",
    );
  }
  const signed = headerValues(headers);
  const payload = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  let event: unknown;
  try {
    event = new Webhook(secret).verify(payload, signed);
  } catch (error) {
    if (!(error instanceof LibraryError)) throw new WebhookVerificationError('invalid_body', 'The body is not a JSON event.');
    const stale = /timestamp/i.test(error.message);
    throw new WebhookVerificationError(stale ? 'stale_timestamp' : 'invalid_signature', error.message);
  }
  if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string') {
    throw new WebhookVerificationError('invalid_body', 'The signed body is not an event object.');
  }
  return event as WebhookEvent;
}
