import { describe, expect, it } from '@jest/globals';
import { isId, newId, randomBase64 } from './index.ts';

describe('ids', () => {
  it('carry the prefix of their kind', () => {
    expect(newId('payment')).toMatch(/^pay_[0-9A-Z]{26}$/);
    expect(newId('customer')).toMatch(/^cus_/);
    expect(newId('event')).toMatch(/^evt_/);
    expect(newId('checkout')).toMatch(/^chk_/);
  });

  it('sort by creation, also within the same millisecond', () => {
    const now = Date.now();
    const ids = Array.from({ length: 1000 }, () => newId('payment', now));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(newId('payment', now + 1) > ids[999]!).toBe(true);
  });

  it('recognise only well-formed ids of the kind', () => {
    expect(isId('payment', newId('payment'))).toBe(true);
    expect(isId('payment', newId('customer'))).toBe(false);
    expect(isId('payment', 'pay_123')).toBe(false);
  });

  it('draw the random part of each new millisecond afresh, every symbol equally likely', () => {
    // 3,000 milliseconds × 16 random symbols: each of the 32 symbols should appear about 1,500 times.
    const start = Date.now() + 10_000;
    const randomParts = Array.from({ length: 3000 }, (_, i) => newId('request', start + i).slice(-16));
    expect(new Set(randomParts).size).toBe(randomParts.length);
    const counts = new Map<string, number>();
    for (const symbol of randomParts.join('')) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
    expect(counts.size).toBe(32);
    for (const count of counts.values()) expect(count).toBeGreaterThan(1200);
  });

  it('cannot be found from a neighbour: ids of one millisecond are not consecutive, each step is random', () => {
    // Found by the security pass (docs/security.md, finding 3): ulid's monotonic ids of one
    // millisecond differed by exactly 1, so another merchant's payment page was a guess away.
    const now = Date.now() + 20_000;
    const ids = Array.from({ length: 2000 }, () => newId('payment', now));
    const value = (id: string) => [...id.slice(-16)].reduce((v, c) => v * 32n + BigInt('0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(c)), 0n);
    const steps = ids.slice(1).map((id, i) => value(id) - value(ids[i]!));
    expect(ids.every((id) => id.slice(4, 14) === ids[0]!.slice(4, 14))).toBe(true);
    expect(steps.every((step) => step > 0n)).toBe(true);
    expect(steps.filter((step) => step < 1n << 24n)).toEqual([]);
    expect(new Set(steps).size).toBe(steps.length);
  });
});

describe('randomBase64', () => {
  it('gives fresh random bytes on every call, across refills of the pool, every byte value about equally often', () => {
    // 2,000 nonces of 16 bytes: 32,000 bytes, about eight refills of the 4 KB pool.
    const nonces = Array.from({ length: 2000 }, () => randomBase64(16));
    expect(new Set(nonces).size).toBe(nonces.length);
    const bytes = nonces.map((nonce) => Buffer.from(nonce, 'base64'));
    expect(bytes.every((b) => b.length === 16)).toBe(true);
    const counts = new Array<number>(256).fill(0);
    for (const b of bytes) for (const value of b) counts[value]! += 1;
    // 125 expected per value; a pool handed out twice or a zeroed buffer would skew this far.
    expect(Math.min(...counts)).toBeGreaterThan(60);
    expect(Math.max(...counts)).toBeLessThan(200);
  });

  it('refuses sizes outside 1 to 256 bytes', () => {
    expect(() => randomBase64(0)).toThrow(RangeError);
    expect(() => randomBase64(257)).toThrow(RangeError);
    expect(() => randomBase64(1.5)).toThrow(RangeError);
  });
});
