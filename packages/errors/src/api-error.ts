/**
 * The one closed set of API error codes. Gateway and services share it: a service throws an
 * ApiError, the gRPC layer carries its code and field, the gateway answers with the HTTP status.
 * Adding a code is an additive API change; renaming or removing one breaks merchants.
 */

// gRPC status numbers (from the gRPC spec), kept here so this package has no gRPC dependency.
const INVALID_ARGUMENT = 3;
const DEADLINE_EXCEEDED = 4;
const NOT_FOUND = 5;
const PERMISSION_DENIED = 7;
const RESOURCE_EXHAUSTED = 8;
const FAILED_PRECONDITION = 9;
const ABORTED = 10;
const INTERNAL = 13;
const UNAVAILABLE = 14;
const UNAUTHENTICATED = 16;

interface ErrorSpec {
  readonly http: number;
  readonly grpc: number;
  readonly message: string;
}

export const API_ERRORS = {
  // Request validation (400).
  invalid_json: { http: 400, grpc: INVALID_ARGUMENT, message: 'The request body is not a JSON object.' },
  invalid_amount: {
    http: 400,
    grpc: INVALID_ARGUMENT,
    message: 'amount must be a decimal string from 1.00 to 100000.00 with at most two decimals.',
  },
  invalid_currency: { http: 400, grpc: INVALID_ARGUMENT, message: 'currency must be one of USD, EUR, GBP, CAD, AUD.' },
  invalid_description: { http: 400, grpc: INVALID_ARGUMENT, message: 'description must be a string of 1 to 120 characters.' },
  invalid_reference: { http: 400, grpc: INVALID_ARGUMENT, message: 'reference must be null or a string of 1 to 120 characters.' },
  invalid_metadata: { http: 400, grpc: INVALID_ARGUMENT, message: 'metadata must be null or an object of at most 20 string values.' },
  invalid_url: {
    http: 400,
    grpc: INVALID_ARGUMENT,
    message: 'The URL must be a full http(s) address of at most 1000 characters without credentials.',
  },
  invalid_customer: {
    http: 400,
    grpc: INVALID_ARGUMENT,
    message: 'customer must be null or an object of name, phone, addresses and store account (see the API docs).',
  },
  invalid_email: { http: 400, grpc: INVALID_ARGUMENT, message: 'A valid email address is required.' },
  invalid_country: { http: 400, grpc: INVALID_ARGUMENT, message: 'country must be a two-letter country code.' },
  invalid_limit: { http: 400, grpc: INVALID_ARGUMENT, message: 'limit must be an integer from 1 to 100.' },
  invalid_cursor: { http: 400, grpc: INVALID_ARGUMENT, message: 'starting_after is not one of your objects in this mode.' },
  invalid_outcome: { http: 400, grpc: INVALID_ARGUMENT, message: 'outcome must be one of paid, underpaid, failed.' },
  invalid_idempotency_key: { http: 400, grpc: INVALID_ARGUMENT, message: 'Idempotency-Key must be 1 to 120 printable ASCII characters.' },
  invalid_request: { http: 400, grpc: INVALID_ARGUMENT, message: 'The request is malformed.' },
  invalid_lifetime: {
    http: 400,
    grpc: INVALID_ARGUMENT,
    message: 'lifetime must be a whole number of minutes (m), hours (h) or days (d) from 1h to 90d.',
  },
  invalid_customer_name: { http: 400, grpc: INVALID_ARGUMENT, message: 'customer_name must be null or a string of 1 to 120 characters.' },
  invalid_plans: {
    http: 400,
    grpc: INVALID_ARGUMENT,
    message: 'A pricing table has 2 to 4 plans, each a label and a price; choose one of them.',
  },
  invalid_memo: { http: 400, grpc: INVALID_ARGUMENT, message: 'memo must be null or a string of 1 to 500 characters.' },
  invalid_locale: {
    http: 400,
    grpc: INVALID_ARGUMENT,
    message: 'locale must be null or one of en, de, fr, es, it, nl, pt-BR, pl, ja, ar.',
  },
  invalid_event_types: {
    http: 400,
    grpc: INVALID_ARGUMENT,
    message: 'enabled_events must be "*" or a list of known webhook event types.',
  },
  // Dashboard users (docs/adr/0028): made by the operator CLI, never through the merchant API.
  invalid_password: {
    http: 400,
    grpc: INVALID_ARGUMENT,
    message: 'The password must be 12 to 200 characters and not one of the most common passwords.',
  },
  email_taken: { http: 409, grpc: FAILED_PRECONDITION, message: 'A dashboard user with this email already exists.' },
  // Authentication and permission.
  invalid_api_key: { http: 401, grpc: UNAUTHENTICATED, message: 'The API key is missing, malformed or revoked.' },
  suspended: { http: 403, grpc: PERMISSION_DENIED, message: 'This account is suspended.' },
  live_payment: { http: 403, grpc: PERMISSION_DENIED, message: 'Live payments cannot be simulated.' },
  test_mode_only: { http: 403, grpc: PERMISSION_DENIED, message: 'Only a Test key can do this; Live events go to webhook endpoints.' },
  // Lookup.
  not_found: { http: 404, grpc: NOT_FOUND, message: 'No such object.' },
  // State conflicts.
  idempotency_conflict: {
    http: 409,
    grpc: ABORTED,
    message: 'This Idempotency-Key was used with a different request, or its first request is still running.',
  },
  no_payout_wallet: { http: 409, grpc: FAILED_PRECONDITION, message: 'Set a payout wallet before creating Live sessions.' },
  no_providers: { http: 409, grpc: FAILED_PRECONDITION, message: 'No provider can take this amount and currency now.' },
  already_paid: { http: 409, grpc: FAILED_PRECONDITION, message: 'The payment is already paid.' },
  // Simulate `failed` on an expired (or canceled) started payment: only a late delivery moves it (issue 51).
  already_expired: {
    http: 409,
    grpc: FAILED_PRECONDITION,
    message: 'The payment has expired: only money arriving late can still change it.',
  },
  held: { http: 409, grpc: FAILED_PRECONDITION, message: 'The payment is held for review.' },
  failed: { http: 409, grpc: FAILED_PRECONDITION, message: 'The payment has failed.' },
  unavailable: { http: 409, grpc: FAILED_PRECONDITION, message: 'The account cannot take payments now.' },
  not_started: { http: 409, grpc: FAILED_PRECONDITION, message: 'The session has not been started.' },
  endpoint_disabled: { http: 409, grpc: FAILED_PRECONDITION, message: 'The webhook endpoint is disabled; enable it first.' },
  expired: { http: 410, grpc: FAILED_PRECONDITION, message: 'The session has expired.' },
  canceled: { http: 410, grpc: FAILED_PRECONDITION, message: 'The session was canceled.' },
  archived: { http: 410, grpc: FAILED_PRECONDITION, message: 'This checkout was archived by the merchant and takes no new payments.' },
  // Canceling: only payment links, and only while nobody has paid (docs/adr/0081; the spec's state
  // table names the cancel before anyone went to a provider, issue 47 widened it).
  not_cancelable: {
    http: 409,
    grpc: FAILED_PRECONDITION,
    message: 'Only a payment link nobody has paid can be canceled; this payment can no longer be.',
  },
  // Transport-level request problems. The first two are answered from Node's HTTP parser (clientError).
  request_timeout: { http: 408, grpc: DEADLINE_EXCEEDED, message: 'The request did not arrive whole in time.' },
  headers_too_large: { http: 431, grpc: INVALID_ARGUMENT, message: 'The request line or headers are larger than 16 KiB.' },
  expectation_failed: { http: 417, grpc: INVALID_ARGUMENT, message: 'Only "Expect: 100-continue" is supported.' },
  payload_too_large: { http: 413, grpc: INVALID_ARGUMENT, message: 'The request body is larger than 64 KiB.' },
  unsupported_media_type: { http: 415, grpc: INVALID_ARGUMENT, message: 'Content-Type must be application/json.' },
  rate_limited: { http: 429, grpc: RESOURCE_EXHAUSTED, message: 'Too many requests; retry after 60 seconds.' },
  // Platform faults. A 500 is always a bug and is logged with the request id.
  internal_error: { http: 500, grpc: INTERNAL, message: 'Something went wrong on our side.' },
  network_unavailable: { http: 502, grpc: UNAVAILABLE, message: 'The card network did not answer; retry in a minute.' },
  service_unavailable: { http: 503, grpc: UNAVAILABLE, message: 'The service is temporarily unavailable; retry shortly.' },
  // Read-your-writes (docs/adr/0011): a read that cannot yet reflect an answered write says so rather than answer stale.
  catching_up: {
    http: 503,
    grpc: UNAVAILABLE,
    message: 'Customers and orders are still catching up with a recent write; retry after the Retry-After seconds.',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof API_ERRORS;

/** The JSON body of every error response. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; field?: string };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(API_ERRORS, value);
}

export function httpStatusOf(code: ErrorCode): number {
  return API_ERRORS[code].http;
}

export function grpcStatusOf(code: ErrorCode): number {
  return API_ERRORS[code].grpc;
}

/** An error a merchant may see: a stable code, a sentence for people, and the field at fault. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;

  constructor(code: ErrorCode, message?: string, field?: string) {
    super(message ?? API_ERRORS[code].message);
    this.name = 'ApiError';
    this.code = code;
    this.field = field;
  }

  get httpStatus(): number {
    return httpStatusOf(this.code);
  }

  toBody(): ErrorBody {
    return {
      error: { code: this.code, message: this.message, ...(this.field === undefined ? {} : { field: this.field }) },
    };
  }
}
