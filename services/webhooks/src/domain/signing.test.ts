import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { newSigningSecret, signatureHeaders } from './signing.ts';

describe('signing', () => {
  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });

  it('builds headers the standardwebhooks library verifies', () => {
    const secret = newSigningSecret();
    const body = '{"id":"evt_1","type":"ping"}';
    const headers = signatureHeaders([secret], 'evt_1', new Date(), body);
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-timestamp']).toMatch(/^[0-9]{10}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual({ id: 'evt_1', type: 'ping' });
    expect(() => new Webhook(secret).verify(`${body} `, { ...headers })).toThrow();
  });

  it('signs with every secret during a rotation, so either one verifies', () => {
    const [next, previous, stranger] = [newSigningSecret(), newSigningSecret(), newSigningSecret()];
    const body = '{}';
    const headers = signatureHeaders([next, previous], 'evt_2', new Date(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(next).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(previous).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(stranger).verify(body, { ...headers })).toThrow(/No matching signature/);
  });
});
