import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '@hc/errors';
import { newId } from '@hc/ids';
import type { Logger } from '@hc/logging';

/**
 * Requests Node's HTTP parser refuses never reach Express (a bad Content-Length, Content-Length with
 * chunked encoding, a control character in a header value, raw non-ASCII bytes in the path, a request
 * line or headers over 16 KiB). Node's own answer is a bare status line without a body; this answers
 * them like every other refusal: the API's error body, a stable code, Cache-Control: no-store and a
 * request id, then closes the connection (the parser cannot tell where the next request would start).
 */
export function answerParserRefusals(server: Server, logger: Logger): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset or a half-written response leaves nothing that could carry an answer.
    if (error.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    const apiError = parserRefusal(error.code);
    const requestId = newId('request');
    logger.info({ requestId, parserError: error.code, status: apiError.httpStatus }, 'request refused by the HTTP parser');
    socket.end(rawResponse(apiError, requestId));
  });
  // Node answers an Expect header other than 100-continue with a bare 417 unless this is listened to.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const apiError = new ApiError('expectation_failed');
    const body = JSON.stringify(apiError.toBody());
    res.writeHead(apiError.httpStatus, {
      ...ERROR_HEADERS,
      'Content-Length': Buffer.byteLength(body),
      'X-Request-Id': newId('request'),
      Connection: 'close',
    });
    res.end(body);
  });
}

/** The headers every refusal made outside Express carries (the app sets the same on its answers). */
const ERROR_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
} as const;

/** The ApiError for a parser error code (llhttp's HPE_* or Node's ERR_HTTP_*). */
export function parserRefusal(code: string | undefined): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('headers_too_large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request_timeout');
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return new ApiError('invalid_request', 'Content-Length must be one non-negative number, and not sent with Transfer-Encoding.');
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return new ApiError('invalid_request', 'The chunked body is malformed.');
    case 'HPE_INVALID_HEADER_TOKEN':
      return new ApiError('invalid_request', 'A header name or value contains a character HTTP does not allow.');
    case 'HPE_INVALID_URL':
      return new ApiError('invalid_request', 'The path must be ASCII; percent-encode other characters.');
    default:
      return new ApiError('invalid_request', 'The request is not valid HTTP/1.1.');
  }
}

function rawResponse(apiError: ApiError, requestId: string): string {
  const body = JSON.stringify(apiError.toBody());
  const status = apiError.httpStatus;
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}`,
    ...Object.entries(ERROR_HEADERS).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** True when a response on this socket has already sent its headers (Node's own check, same field). */
function responseStarted(socket: Duplex): boolean {
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return current?.headersSent === true;
}
