import { describe, expect, it } from '@jest/globals';
import { webhookSuccessUrl } from './success-url.ts';

describe('webhook successUrl: placeholders left in, percent-encoded only where they stand in the path', () => {
  it.each([
    ['https://shop.example/thanks/{PAYMENT_ID}?ref={REFERENCE}', 'https://shop.example/thanks/%7BPAYMENT_ID%7D?ref={REFERENCE}'],
    ['https://shop.example/o/{REFERENCE}/p/{PAYMENT_ID}', 'https://shop.example/o/%7BREFERENCE%7D/p/%7BPAYMENT_ID%7D'],
    ['https://shop.example/o/{REFERENCE}-{REFERENCE}/', 'https://shop.example/o/%7BREFERENCE%7D-%7BREFERENCE%7D/'],
    ['https://shop.example/thanks?p={PAYMENT_ID}&r={REFERENCE}', 'https://shop.example/thanks?p={PAYMENT_ID}&r={REFERENCE}'],
    ['https://shop.example/thanks#{PAYMENT_ID}', 'https://shop.example/thanks#{PAYMENT_ID}'],
    ['https://shop.example/p/{PAYMENT_ID}#/r/{REFERENCE}', 'https://shop.example/p/%7BPAYMENT_ID%7D#/r/{REFERENCE}'],
    ['https://shop.example?next=/done/{PAYMENT_ID}', 'https://shop.example?next=/done/{PAYMENT_ID}'],
    ['https://shop.example#/done/{PAYMENT_ID}', 'https://shop.example#/done/{PAYMENT_ID}'],
    ['http://127.0.0.1:4000/r/{PAYMENT_ID}?x=1#{REFERENCE}', 'http://127.0.0.1:4000/r/%7BPAYMENT_ID%7D?x=1#{REFERENCE}'],
  ])('%s is sent as %s', (set, sent) => {
    expect(webhookSuccessUrl(set)).toBe(sent);
    // What a URL parser makes of it is unchanged: the same address, written the way it would be.
    expect(new URL(sent).href).toBe(new URL(set).href);
  });

  it.each([
    'https://Shop.Example/Thanks',
    'https://shop.example/thanks/%7BPAYMENT_ID%7D',
    'https://shop.example/{payment_id}/{OTHER}',
    'https://shop.example',
  ])('leaves %s exactly as set (no placeholder in the path)', (set) => {
    expect(webhookSuccessUrl(set)).toBe(set);
  });

  it('is null when no success URL was set', () => {
    expect(webhookSuccessUrl(null)).toBeNull();
  });
});
