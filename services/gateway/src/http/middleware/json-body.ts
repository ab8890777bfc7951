import express, { type RequestHandler } from 'express';
import { ApiError } from '@hc/errors';

export const MAX_BODY_BYTES = 64 * 1024;

const parseJson = express.json({
  limit: MAX_BODY_BYTES,
  strict: false,
  type: () => true,
  // body-parser reads an empty body as {}; an empty body is not a JSON object, so it is invalid_json.
  verify: (_req, _res, raw) => {
    if (raw.length === 0) throw Object.assign(new Error('The request body is empty.'), { type: 'entity.empty' });
  },
});

/**
 * For requests that carry a body: Content-Type must be application/json (415 otherwise), the body at
 * most 64 KiB (413), valid JSON (400 invalid_json) and a JSON object (400 invalid_json).
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
    next();
  });
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
  switch ((error as { type?: string }).type) {
    case 'entity.too.large':
      return new ApiError('payload_too_large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError('unsupported_media_type', 'The body must be JSON encoded as UTF-8.');
    case 'entity.empty':
      return new ApiError('invalid_json');
    default:
      return new ApiError('invalid_json', 'The request body is not valid JSON.');
  }
}
