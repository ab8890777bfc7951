import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, type ErrorCode } from '@hc/errors';
import { newId } from '@hc/ids';
import type { Logger } from '@hc/logging';

/**
 * How a listener answers what Node's HTTP parser refuses:
 * - `api`: always the API's JSON error body (the gateway, the processors' notices listener);
 * - `page`: always a plain error page (the buyer pages, the dashboard);
 * - `by-path`: the JSON body when the request line names a `/v1` path, a plain page otherwise (the
 *   front router, which serves both behind one address).
 */
export type RefusalStyle = 'api' | 'page' | 'by-path';

/**
 * Requests Node's HTTP parser refuses never reach Express (a bad or negative Content-Length,
 * Content-Length with chunked encoding, bad chunked framing, a control character in a header, raw
 * non-ASCII bytes in the path, a request line or headers over 16 KiB). Node's own answer is a bare
 * status line without a body; this answers them like every other refusal of that listener — the API's
 * error body or a plain page, with a stable status, Cache-Control: no-store and a request id — then
 * closes the connection (the parser cannot tell where the next request would start).
 */
export function answerParserRefusals(
  server: Server,
  logger: Logger | undefined,
  style: RefusalStyle,
  options: { readonly headerCodes?: HeaderCodes } = {},
): void {
  server.on('clientError', (error: ParserError, socket: Duplex) => {
    // A reset or a half-written response leaves nothing that could carry an answer.
    if (error.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    const api = wantsApiBody(style, error.rawPacket);
    const header = api && options.headerCodes ? refusedHeader(error) : undefined;
    const code = header === undefined ? undefined : options.headerCodes?.[header];
    const apiError = code === undefined ? parserRefusal(error.code) : headerRefusal(code, header!);
    const requestId = newId('request');
    logger?.info({ requestId, parserError: error.code, header, status: apiError.httpStatus }, 'request refused by the HTTP parser');
    socket.end(rawResponse(refusalAnswer(apiError, api), requestId));
  });
  // Node answers an Expect header other than 100-continue with a bare 417 unless this is listened to.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const answer = refusalAnswer(new ApiError('expectation_failed'), wantsApiBody(style, req.url));
    res.writeHead(answer.status, {
      ...answer.headers,
      'Content-Length': Buffer.byteLength(answer.body),
      'X-Request-Id': newId('request'),
      Connection: 'close',
    });
    res.end(answer.body);
  });
}

/** What Node hands a clientError listener: llhttp's code, the bytes it was parsing and where it stopped. */
type ParserError = NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number };

/** Error codes by lowercase header name, for a header whose value the parser refused a byte of. */
export type HeaderCodes = Readonly<Record<string, ErrorCode>>;

/**
 * The /v1 API's headers with their own codes in the contract: a byte HTTP does not allow (a control
 * character, DEL) in one of them is that header's refusal, as the same header with any other bad value
 * is in the app (Idempotency-Key: not printable ASCII; Authorization: a malformed key; Content-Type:
 * not application/json). Any other header's is invalid_request.
 */
export const API_HEADER_CODES: HeaderCodes = {
  'idempotency-key': 'invalid_idempotency_key',
  authorization: 'invalid_api_key',
  'content-type': 'unsupported_media_type',
};

/**
 * The lowercase name of the header whose value held the byte the parser refused, read from the bytes
 * it was parsing: the line that holds the offset it stopped at, up to its colon. Undefined for any other
 * refusal, for a bad byte in a header's name, or when that line began in an earlier packet (no name).
 */
export function refusedHeader(error: ParserError): string | undefined {
  const { rawPacket: packet, bytesParsed: at } = error;
  if (error.code !== 'HPE_INVALID_HEADER_TOKEN' || packet === undefined || at === undefined || at > packet.length) return undefined;
  const lineStart = packet.lastIndexOf(0x0a, at - 1) + 1;
  const line = packet.subarray(lineStart, at).toString('latin1');
  const colon = line.indexOf(':');
  if (lineStart === 0 || colon <= 0) return undefined;
  return line.slice(0, colon).trim().toLowerCase();
}

function headerRefusal(code: ErrorCode, header: string): ApiError {
  const name = header.replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => dash + letter.toUpperCase());
  return new ApiError(code, `The ${name} header holds a character HTTP does not allow in a header (a control character or DEL).`);
}

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

/**
 * Whether the refusal is answered with the API's JSON body. For `by-path`, the target of the request
 * line (what the parser had read: `rawPacket`, or the URL once parsed) decides; a request line too
 * broken to name a path gets the plain page.
 */
export function wantsApiBody(style: RefusalStyle, requestStart: Buffer | string | undefined): boolean {
  if (style !== 'by-path') return style === 'api';
  const start = typeof requestStart === 'string' ? requestStart : (requestStart?.subarray(0, 64).toString('latin1') ?? '');
  const target = /^(?:[A-Z]+ )?(\/\S*)/.exec(start)?.[1] ?? '';
  return target === '/v1' || /^\/v1[/?#]/.test(target);
}

interface RefusalAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The headers every refusal made outside Express carries (the apps set the same on their answers). */
const COMMON_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' } as const;

function refusalAnswer(apiError: ApiError, api: boolean): RefusalAnswer {
  if (api) {
    return {
      status: apiError.httpStatus,
      headers: {
        ...COMMON_HEADERS,
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
      },
      body: JSON.stringify(apiError.toBody()),
    };
  }
  return {
    status: apiError.httpStatus,
    headers: {
      ...COMMON_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      'Referrer-Policy': 'no-referrer',
    },
    body: plainPage(apiError.httpStatus, apiError.message),
  };
}

/** A page with nothing but words: no script, no style, no link (its text is ours, never the request's). */
function plainPage(status: number, message: string): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Bad Request'}`;
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${escapeText(message)} Please try again from the page you came from.</p></body></html>\n`;
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function rawResponse(answer: RefusalAnswer, requestId: string): string {
  return [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Bad Request'}`,
    ...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(answer.body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    answer.body,
  ].join('\r\n');
}

/** True when a response on this socket has already sent its headers (Node's own check, same field). */
function responseStarted(socket: Duplex): boolean {
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return current?.headersSent === true;
}
