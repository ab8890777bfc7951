import type { JSONSchemaType } from 'ajv';
import type { ErrorCode } from '@hc/errors';
import { ApiError } from '@hc/errors';
import { MalformedQueryValue } from './query.ts';
import { textProblem } from './text.ts';
import { bodyValidator } from './validate.ts';

/** Body of POST /v1/checkout_sessions/:id/start; rules (email form, two letters) are checkout's. */
export interface StartCheckoutSessionBody {
  customer_email?: string | null;
  country?: string | null;
}

export const startCheckoutSessionSchema: JSONSchemaType<StartCheckoutSessionBody> = {
  type: 'object',
  properties: {
    customer_email: { type: 'string', nullable: true },
    country: { type: 'string', nullable: true },
  },
  additionalProperties: true,
};

const startFieldCodes: Record<keyof StartCheckoutSessionBody, ErrorCode> = {
  customer_email: 'invalid_email',
  country: 'invalid_country',
};

export const validateStartCheckoutSession = bodyValidator(startCheckoutSessionSchema, startFieldCodes);

/** Body of POST /v1/payments/:id/simulate: the outcome's value is checked by checkout. */
export interface SimulatePaymentBody {
  outcome: string;
}

export const simulatePaymentSchema: JSONSchemaType<SimulatePaymentBody> = {
  type: 'object',
  properties: { outcome: { type: 'string' } },
  required: ['outcome'],
  additionalProperties: true,
};

export const validateSimulatePayment = bodyValidator(simulatePaymentSchema, { outcome: 'invalid_outcome' });

/** The page size of list endpoints when `limit` is not sent; also in the OpenAPI document. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** Query of list endpoints: `limit` 1–100 (default 20, no silent fallback) and `starting_after`. */
export function listQuery(query: Record<string, unknown>): { limit: number; startingAfter: string | undefined } {
  const rawLimit = optionalQueryString(query, 'limit', 'invalid_limit');
  let limit = DEFAULT_LIMIT;
  if (rawLimit !== undefined) {
    if (!/^[0-9]{1,3}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > MAX_LIMIT) {
      throw new ApiError('invalid_limit', undefined, 'limit');
    }
    limit = Number(rawLimit);
  }
  return { limit, startingAfter: optionalQueryString(query, 'starting_after', 'invalid_cursor') };
}

/**
 * An optional, non-empty string query parameter. Refused with `code`: a repeated one (`?a=1&a=2`), one
 * that is not valid percent-encoded UTF-8, and one that breaks the text rule (text.ts).
 */
export function optionalQueryString(query: Record<string, unknown>, name: string, code: ErrorCode): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (value instanceof MalformedQueryValue) throw new ApiError(code, `${name} is not valid percent-encoded UTF-8.`, name);
  if (typeof value !== 'string' || value === '') throw new ApiError(code, `${name} must be a non-empty string.`, name);
  const problem = textProblem(value);
  if (problem !== undefined) throw new ApiError(code, `${name} ${problem}.`, name);
  return value;
}

/** An optional Unix-seconds query parameter (`created[gte]`…): digits only, else invalid_request. */
export function unixSecondsQuery(query: Record<string, unknown>, name: string): bigint | undefined {
  const value = optionalQueryString(query, name, 'invalid_request');
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,12}$/.test(value)) throw new ApiError('invalid_request', `${name} must be Unix seconds.`, name);
  return BigInt(value);
}

/**
 * The filters of GET /v1/payments, as sent; checkout checks the status and source values (one
 * list of them, shared with the dashboard) and answers invalid_request with the field.
 */
export interface PaymentListFilters {
  readonly status: string | undefined;
  readonly source: string | undefined;
  readonly reference: string | undefined;
  readonly customerEmail: string | undefined;
  readonly createdGte: bigint | undefined;
  readonly createdLte: bigint | undefined;
}

export function paymentListFilters(query: Record<string, unknown>): PaymentListFilters {
  return {
    status: optionalQueryString(query, 'status', 'invalid_request'),
    source: optionalQueryString(query, 'source', 'invalid_request'),
    reference: optionalQueryString(query, 'reference', 'invalid_reference'),
    customerEmail: optionalQueryString(query, 'customer_email', 'invalid_email'),
    createdGte: unixSecondsQuery(query, 'created[gte]'),
    createdLte: unixSecondsQuery(query, 'created[lte]'),
  };
}
