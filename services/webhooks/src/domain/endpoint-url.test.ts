import { describe, expect, it } from '@jest/globals';
import { parseEndpointUrl } from './endpoint-url.ts';

describe('endpoint URLs', () => {
  it('take https in both modes and http in Test only', () => {
    expect(parseEndpointUrl('https://shop.example.com/hooks', true).hostname).toBe('shop.example.com');
    expect(parseEndpointUrl('http://127.0.0.1:8080/hooks', false).port).toBe('8080');
    expect(() => parseEndpointUrl('http://shop.example.com/hooks', true)).toThrow(/Live endpoints must use https/);
  });

  it('refuse other schemes, relative URLs, credentials and overlong URLs', () => {
    for (const url of [
      'ftp://x.example.com',
      '/hooks',
      'https://user:pw@x.example.com/',
      'https://user@x.example.com/',
      'javascript:alert(1)',
    ]) {
      expect(() => parseEndpointUrl(url, false)).toThrow(expect.objectContaining({ code: 'invalid_url', field: 'url' }));
    }
    expect(() => parseEndpointUrl(`https://x.example.com/${'a'.repeat(1000)}`, false)).toThrow(/1 to 1000/);
  });
});
