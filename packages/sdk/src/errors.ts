import type { components } from './generated/openapi.ts';

/** Every error code the API documents (docs/api-errors.md); branch on these, never on messages. */
export type ErrorCode = components['schemas']['ErrorCode'];

/** An API answer other than 2xx, as { error: { code, message, field? } } said it. */
export class HostedCheckoutError extends Error {
  override readonly name = 'HostedCheckoutError';
  readonly status: number;
  readonly code: ErrorCode;
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

interface ErrorBody {
  error?: { code?: unknown; message?: unknown; field?: unknown };
}

/** The typed error of a non-2xx answer; a body that is not the API's error shape keeps its status. */
export function errorFromResponse(response: Response, body: unknown): HostedCheckoutError {
  const error = (typeof body === 'object' && body !== null ? (body as ErrorBody).error : undefined) ?? {};
  const code = typeof error.code === 'string' ? (error.code as ErrorCode) : 'internal_error';
  const message = typeof error.message === 'string' ? error.message : `HTTP ${response.status}`;
  const field = typeof error.field === 'string' ? error.field : undefined;
  return new HostedCheckoutError(response.status, code, message, field, response.headers.get('x-request-id') ?? undefined);
}
