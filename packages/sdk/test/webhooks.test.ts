// Risk covered: webhooks.verify accepting a forged, altered, stale or re-serialized (parsed) body,
// or refusing a genuine delivery given as a string, a Buffer or any header shape (issue 29).
import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { newSigningSecret, verifyWebhook, WebhookVerificationError } from '../src/index.ts';

const secret = newSigningSecret();
const event = { id: 'evt_1', type: 'payment.paid', created: 1, livemode: false, data: { payment: { id: 'pay_1', status: 'paid' } } };
// Spaces a framework's JSON.stringify would not reproduce: only the raw text verifies.
const raw = JSON.stringify(event, null, 1);

function signed(body: string, at = new Date(), key = secret): Record<string, string> {
  return {
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(key).sign('evt_1', at, body),
  };
}

function refusal(call: () => unknown): WebhookVerificationError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  throw new Error('verify accepted it');
}

describe('verifyWebhook', () => {
  it('returns the typed event for the raw body as a string, a Buffer, with Node or fetch headers', () => {
    const headers = signed(raw);
    expect(verifyWebhook(raw, headers, secret)).toEqual(event);
    expect(verifyWebhook(Buffer.from(raw), headers, secret).type).toBe('payment.paid');
    expect(verifyWebhook(raw, new Headers(headers), secret).id).toBe('evt_1');
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), [v]]));
    expect(verifyWebhook(raw, upper, secret).id).toBe('evt_1');
  });

  it('refuses a parsed object with an explicit parsed_body error, even one whose signature would match', () => {
    const error = refusal(() => verifyWebhook(JSON.parse(raw) as unknown as string, signed(raw), secret));
    expect(error.code).toBe('parsed_body');
    expect(error.message).toMatch(/express\.raw/);
  });

  it('refuses a re-serialized body, another secret, a stale timestamp and missing headers', () => {
    expect(refusal(() => verifyWebhook(JSON.stringify(event), signed(raw), secret)).code).toBe('invalid_signature');
    expect(refusal(() => verifyWebhook(raw, signed(raw, new Date(), newSigningSecret()), secret)).code).toBe('invalid_signature');
    expect(refusal(() => verifyWebhook(raw, signed(raw, new Date(Date.now() - 10 * 60_000)), secret)).code).toBe('stale_timestamp');
    const { 'webhook-signature': _dropped, ...unsigned } = signed(raw);
    expect(refusal(() => verifyWebhook(raw, unsigned, secret)).code).toBe('missing_headers');
  });
});
