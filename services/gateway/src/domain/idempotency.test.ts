import { describe, expect, it } from '@jest/globals';
import { ApiError } from '@hc/errors';
import { createHash } from 'node:crypto';
import { canonicalJson, idempotencyKey, requestHash } from './idempotency.ts';

describe('Idempotency-Key', () => {
  it('accepts 1 to 120 printable ASCII characters', () => {
    expect(idempotencyKey('a')).toBe('a');
    expect(idempotencyKey('k'.repeat(120))).toBe('k'.repeat(120));
    expect(idempotencyKey('order 42 / retry #1 ~!')).toBe('order 42 / retry #1 ~!');
    expect(idempotencyKey(undefined)).toBeUndefined();
  });

  it.each(['', '   ', 'k'.repeat(121), 'clé', 'tab\there', 'new\nline', 'emoji😀'])('refuses %j, never truncating', (key) => {
    let thrown: unknown;
    try {
      idempotencyKey(key);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ code: 'invalid_idempotency_key' });
  });
});

describe('request fingerprints', () => {
  it('ignore key order at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
    expect(requestHash('checkout_session', { amount: '1', metadata: { x: '1', y: '2' } })).toBe(
      requestHash('checkout_session', { metadata: { y: '2', x: '1' }, amount: '1' }),
    );
  });

  it('treat null and absent alike, and differ on any value', () => {
    expect(requestHash('checkout_session', { amount: '1', reference: null })).toBe(requestHash('checkout_session', { amount: '1' }));
    expect(requestHash('checkout_session', { amount: '1' })).not.toBe(requestHash('checkout_session', { amount: '1.00' }));
  });

  it('name the create: one body sent to two creates is two requests; a session keeps the hash earlier gateways wrote', () => {
    const body = { amount: '1.00', currency: 'USD', description: 'Mug' };
    const hashes = (['checkout_session', 'payment_link', 'webhook_endpoint'] as const).map((create) => requestHash(create, body));
    expect(new Set(hashes).size).toBe(3);
    // sha256 of the canonical body alone: what the records of earlier gateways hold.
    expect(hashes[0]).toBe(createHash('sha256').update('{"amount":"1.00","currency":"USD","description":"Mug"}').digest('hex'));
  });
});
