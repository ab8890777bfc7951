import { describe, expect, it } from '@jest/globals';
import { ApiError } from '@hc/errors';
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
    expect(requestHash({ amount: '1', metadata: { x: '1', y: '2' } })).toBe(requestHash({ metadata: { y: '2', x: '1' }, amount: '1' }));
  });

  it('treat null and absent alike, and differ on any value', () => {
    expect(requestHash({ amount: '1', reference: null })).toBe(requestHash({ amount: '1' }));
    expect(requestHash({ amount: '1' })).not.toBe(requestHash({ amount: '1.00' }));
  });
});
