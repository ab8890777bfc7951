import type { components } from './generated/openapi.ts';

/** Every error code the API documents (docs/api-errors.md); branch on these, never on messages. */
export type ErrorCode = components['schemas']['ErrorCode'];

/**
 * What every call of this SDK throws (besides your own AbortSignal's reason): catch this to catch
 * them all, or one of its subclasses to tell them apart.
 */
export class HostedCheckoutError extends Error {
  override readonly name: string = 'HostedCheckoutError';
}

/** The API answered with its error shape { error: { code, message, field? } } and a non-2xx status. */
export class HostedCheckoutApiError extends HostedCheckoutError {
  override readonly name: string = 'HostedCheckoutApiError';
  readonly status: number;
  readonly code: ErrorCode;
  /** The request field at fault, when the API names one (e.g. `amount`). */
  readonly field: string | undefined;
  /** Quote it to support. */
  readonly requestId: string | undefined;

  constructor(status: number, code: ErrorCode, message: string, field: string | undefined, requestId: string | undefined) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.requestId = requestId;
  }
}

/**
 * No answer came: the connection was refused, reset or dropped (`cause` says how). For a create this
 * means the outcome is unknown: call it again with the same idempotencyKey to find out safely.
 */
export class HostedCheckoutConnectionError extends HostedCheckoutError {
  override readonly name: string = 'HostedCheckoutConnectionError';
}

/** No whole answer within the timeout (per try). A connection error too: the outcome is unknown. */
export class HostedCheckoutTimeoutError extends HostedCheckoutConnectionError {
  override readonly name: string = 'HostedCheckoutTimeoutError';
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * Something answered, but not the API: a body that is not JSON (a proxy's HTML 502 page) or an error
 * without the API's shape. `body` holds its first 500 characters.
 */
export class HostedCheckoutUnexpectedResponseError extends HostedCheckoutError {
  override readonly name: string = 'HostedCheckoutUnexpectedResponseError';
  readonly status: number;
  readonly requestId: string | undefined;
  readonly body: string;
  constructor(status: number, body: string, requestId: string | undefined) {
    super(`Unexpected answer (HTTP ${status}, ${body.length === 0 ? 'empty body' : 'not the API’s JSON'})`);
    this.status = status;
    this.body = body.slice(0, 500);
    this.requestId = requestId;
  }
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown; field?: unknown };
}

/** The typed error of a non-2xx answer whose body was JSON (the transport refuses other bodies). */
export function errorFromResponse(response: Response, body: unknown): HostedCheckoutError {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const error = typeof body === 'object' && body !== null ? (body as ErrorBody).error : undefined;
  if (typeof error?.code !== 'string')
    return new HostedCheckoutUnexpectedResponseError(response.status, JSON.stringify(body) ?? '', requestId);
  const message = typeof error.message === 'string' ? error.message : `HTTP ${response.status}`;
  const field = typeof error.field === 'string' ? error.field : undefined;
  return new HostedCheckoutApiError(response.status, error.code as ErrorCode, message, field, requestId);
}
