import { describe, expect, it } from '@jest/globals';
import { parserRefusal, refusedHeader, wantsApiBody } from '../src/parser-refusals.ts';

describe('parser refusals map to stable API errors', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'headers_too_large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request_timeout'],
    ['HPE_INVALID_CONTENT_LENGTH', 400, 'invalid_request'],
    ['HPE_UNEXPECTED_CONTENT_LENGTH', 400, 'invalid_request'],
    ['HPE_INVALID_CHUNK_SIZE', 400, 'invalid_request'],
    ['HPE_INVALID_HEADER_TOKEN', 400, 'invalid_request'],
    ['HPE_INVALID_URL', 400, 'invalid_request'],
    ['HPE_SOMETHING_NEW', 400, 'invalid_request'],
    [undefined, 400, 'invalid_request'],
  ])('%s is %i %s', (code, status, apiCode) => {
    const error = parserRefusal(code);
    expect({ status: error.httpStatus, code: error.code }).toEqual({ status, code: apiCode });
  });
});

describe('which refusals get the API body', () => {
  it.each([
    ['POST /v1/checkout_sessions HTTP/1.1\r\n', true],
    ['GET /v1 HTTP/1.1\r\n', true],
    ['GET /v1?x=1 HTTP/1.1\r\n', true],
    ['/v1/payments', true],
    ['GET /v1x HTTP/1.1\r\n', false],
    ['GET /pay/pay_01 HTTP/1.1\r\n', false],
    ['GET /dashboard/v1 HTTP/1.1\r\n', false],
    ['GET http://evil/v1 HTTP/1.1\r\n', false],
    ['\u0016\u0003\u0001', false],
    ['', false],
  ])('by path, %j → %s', (start, api) => {
    expect(wantsApiBody('by-path', Buffer.from(start, 'latin1'))).toBe(api);
  });

  it('api and page styles do not look at the path', () => {
    expect(wantsApiBody('api', 'GET /pay/x HTTP/1.1')).toBe(true);
    expect(wantsApiBody('page', 'GET /v1/payments HTTP/1.1')).toBe(false);
  });
});

describe('which header the parser refused a byte of', () => {
  // Where llhttp stops: at the first byte a header may not hold (a control character other than tab, or DEL).
  const firstBadByte = (packet: string): number => [...packet].findIndex((c) => (c < ' ' && !'\t\r\n'.includes(c)) || c === '\u007f');
  const refusal = (packet: string, at = firstBadByte(packet)) => ({
    code: 'HPE_INVALID_HEADER_TOKEN',
    rawPacket: Buffer.from(packet, 'latin1'),
    bytesParsed: at,
  });

  it.each([
    ['POST /v1/x HTTP/1.1\r\nHost: a\r\nIdempotency-Key: ab\x7fc\r\n\r\n', 'idempotency-key'],
    ['GET /v1/x HTTP/1.1\r\nauthorization: Bearer \x01k\r\n\r\n', 'authorization'],
    ['GET /v1/x HTTP/1.1\r\nX-Other: \x00\r\n\r\n', 'x-other'],
  ])('%j → %s', (packet, header) => {
    expect(refusedHeader(refusal(packet) as never)).toBe(header);
  });

  it('none for a bad byte in a name, a line begun in an earlier packet, or another refusal', () => {
    expect(refusedHeader(refusal('GET / HTTP/1.1\r\nIdem\x7fpotency: x\r\n\r\n') as never)).toBeUndefined();
    expect(refusedHeader(refusal('ab\x7fc\r\n\r\n') as never)).toBeUndefined();
    expect(refusedHeader({ ...refusal('GET / HTTP/1.1\r\nA: \x7f\r\n\r\n'), code: 'HPE_INVALID_URL' } as never)).toBeUndefined();
  });
});
