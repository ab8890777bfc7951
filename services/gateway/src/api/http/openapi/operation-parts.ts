import { API_ERRORS, type ErrorCode } from '@hc/errors';
import type { JsonSchema } from '../presenters/schemas.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../validation/payment-schemas.ts';

/** The pieces every operation of the OpenAPI document is described with (document.ts). */

// Every /v1 answer may be one of these: the key (401/403), the rate limit (429), a bug (500), a
// service down or catching up (every 503 code), a request id that names nothing (404), a query or
// path value the text rule refuses (400 invalid_request).
export const COMMON: readonly ErrorCode[] = [
  'invalid_request',
  'invalid_api_key',
  'suspended',
  'not_found',
  'rate_limited',
  'internal_error',
];
// Refusals of a JSON body, before the route reads it.
export const BODY: readonly ErrorCode[] = ['invalid_json', 'payload_too_large', 'unsupported_media_type', 'expectation_failed'];
export const LIST: readonly ErrorCode[] = ['invalid_limit', 'invalid_cursor'];
export const UNAVAILABLE = (Object.keys(API_ERRORS) as ErrorCode[]).filter((code) => API_ERRORS[code].http === 503);

export interface Operation {
  readonly id: string;
  readonly summary: string;
  /** What the reference says about it beyond the summary: when to call it, what it changes. */
  readonly description: string;
  readonly ok: { readonly status: 200 | 201; readonly schema: string; readonly description: string }[];
  readonly errors: readonly ErrorCode[];
  readonly body?: JsonSchema;
  /** A body this operation accepts, shown in the reference and its code samples (a test validates it). */
  readonly example?: Record<string, unknown>;
  /** An action that takes no fields: a body is optional (none, or a JSON object; docs/api-errors.md). */
  readonly bodyOptional?: true;
  readonly parameters?: JsonSchema[];
}

/** The body of an action that takes no fields (cancel, rotate_secret): none at all, or a JSON object. */
export const NO_FIELDS: JsonSchema = {
  type: 'object',
  description: 'This action takes no fields: send no body, or any JSON object (its fields are ignored).',
};

/** The Idempotency-Key header every /v1 create takes (the checkout session's rules, one flow for all). */
export const idempotencyKeyHeader = (object: string): JsonSchema => ({
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    `1 to 120 printable ASCII characters, remembered 24 hours per account and mode. A retry with the same key and body ` +
    `answers 200 with the same ${object} (201 went to the request that made it); another body, or the key sent to another ` +
    `create, is 409 idempotency_conflict, as is, rarely, a retry while the first request is still running. Without it every ` +
    `create makes a new ${object}.`,
  schema: { type: 'string', minLength: 1, maxLength: 120 },
  example: 'order-1001-attempt-1',
});

/** The errors a create with an Idempotency-Key adds. */
export const IDEMPOTENT: readonly ErrorCode[] = ['invalid_idempotency_key', 'idempotency_conflict'];

export const idParameter = (description: string, example: string): JsonSchema => ({
  name: 'id',
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
  example,
});

export const query = (name: string, description: string, schema: JsonSchema, example: unknown): JsonSchema => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
  example,
});

export const PAGING = [
  query(
    'limit',
    `Page size, ${1} to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}); anything else is invalid_limit.`,
    {
      type: 'integer',
      minimum: 1,
      maximum: MAX_LIMIT,
      default: DEFAULT_LIMIT,
    },
    20,
  ),
  query(
    'starting_after',
    'The `next_cursor` of the previous page; an id of another account or mode is invalid_cursor.',
    {
      type: 'string',
    },
    'pay_01JD6Z4K8QH3M2V7T5R9X0C1B2',
  ),
];
