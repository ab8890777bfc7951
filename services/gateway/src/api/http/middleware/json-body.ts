import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import { ApiError } from '@hc/errors';
import { firstDuplicateKey } from '../validation/json-keys.ts';

export const MAX_BODY_BYTES = 64 * 1024;

/** A body refused before parsing; its message is the invalid_json message. */
class UnreadableBody extends Error {}
/** A charset body-parser would decode (UTF-16, UTF-32) but JSON between systems must not use. */
class NotUtf8Charset extends Error {}

// Strict UTF-8 (RFC 8259 §8.1): a byte sequence that is not UTF-8 is refused, never replaced with U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true });
// The decoded text of each body, for the duplicate-key scan after parsing (dropped with the request).
const texts = new WeakMap<IncomingMessage, string>();

const parseJson = express.json({
  limit: MAX_BODY_BYTES,
  strict: false,
  type: () => true,
  // Runs on the raw bytes, before body-parser decodes them (leniently) and parses. An empty body is
  // read as {} by body-parser; it is not a JSON object, so it is invalid_json.
  verify: (req, _res, raw, charset) => {
    if (charset !== 'utf-8') throw new NotUtf8Charset('The body must be JSON encoded as UTF-8.');
    if (raw.length === 0) throw new UnreadableBody('The request body is empty.');
    try {
      texts.set(req, utf8.decode(raw));
    } catch {
      throw new UnreadableBody('The request body is not valid UTF-8.');
    }
  },
});

/**
 * For requests that carry a body: Content-Type must be application/json (415 otherwise), the body at
 * most 64 KiB (413), UTF-8 (400 invalid_json), valid JSON (400 invalid_json), a JSON object (400
 * invalid_json) whose objects never repeat a name (400 invalid_json; docs/adr/0041).
 */
export const jsonObjectBody: RequestHandler = (req, res, next) => {
  if (!req.is('application/json')) {
    next(new ApiError('unsupported_media_type'));
    return;
  }
  parseJson(req, res, (error?: unknown) => {
    if (error) {
      next(bodyError(error));
      return;
    }
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      next(new ApiError('invalid_json'));
      return;
    }
    const unsafe = unsafeStructure(body);
    if (unsafe) {
      next(new ApiError('invalid_json', unsafe));
      return;
    }
    const repeated = firstDuplicateKey(texts.get(req) ?? '');
    if (repeated !== undefined) {
      next(new ApiError('invalid_json', `The request body repeats the name ${JSON.stringify(repeated.slice(0, 40))} in one object.`));
      return;
    }
    next();
  });
};

/**
 * For the actions that take no fields (cancel, rotate_secret): no body is needed, and none is read. A
 * request that does carry one (a Content-Length above 0, or chunked) is held to jsonObjectBody's
 * rules, so a body the API would refuse anywhere else is refused here too, never silently ignored.
 * One rule for every POST (docs/api-errors.md): a body, when sent, is a JSON object; only these
 * actions may leave it out.
 */
export const optionalJsonObjectBody: RequestHandler = (req, res, next) => {
  const chunked = req.headers['transfer-encoding'] !== undefined;
  const length = Number(req.headers['content-length'] ?? '0');
  // No bytes is no body, whatever Content-Type says (a client may send its default type on every POST).
  if (!chunked && length === 0) {
    next();
    return;
  }
  jsonObjectBody(req, res, next);
};

/** No request of the API nests deeper than this; deeper bodies are refused before any code walks them. */
export const MAX_JSON_DEPTH = 16;

/**
 * Guards against bodies built to hurt code that walks them: extreme nesting is refused (walked
 * iteratively here, so a deep body cannot exhaust the stack). Prototype keys need no refusal of their
 * own: JSON.parse makes `__proto__` a plain own property, bodies are only copied with spread or
 * Object.fromEntries (which define properties, never set prototypes), unknown fields are ignored, and a
 * metadata key starting with "__" is invalid_metadata by the spec's rule.
 */
export function unsafeStructure(root: object): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_JSON_DEPTH) return `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`;
    for (const child of Object.values(value)) stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}

function bodyError(error: unknown): ApiError {
  if (error instanceof UnreadableBody) return new ApiError('invalid_json', error.message);
  if (error instanceof NotUtf8Charset) return new ApiError('unsupported_media_type', error.message);
  switch ((error as { type?: string }).type) {
    case 'entity.too.large':
      return new ApiError('payload_too_large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError('unsupported_media_type', 'The body must be JSON encoded as UTF-8.');
    default:
      return new ApiError('invalid_json', 'The request body is not valid JSON.');
  }
}
