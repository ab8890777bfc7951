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
    next();
  });
};

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
