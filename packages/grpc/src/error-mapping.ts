import { Metadata, status, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { badValueError, databaseUnavailableError } from '@hc/db';
import { ApiError, grpcStatusOf, isErrorCode } from '@hc/errors';
import type { Logger } from 'pino';

/** Trailing metadata keys that carry the API error code and field across gRPC. */
const CODE = 'hc-error-code';
const FIELD = 'hc-error-field';

export type GrpcFailure = Partial<StatusObject> & { code: status; details: string; metadata: Metadata };

/**
 * The API error a service's failure stands for: an ApiError as thrown; a database refusal of a bad
 * value (SQLSTATE class 22: NUL bytes, too long, out of range) as 400 invalid_request, since every
 * service's store raises it the same way (docs/adr/0012); a database briefly away (a restart, a
 * failover: its connection lost or refused) as 503 service_unavailable, which clients retry
 * (docs/adr/0091); anything else is an internal error.
 */
export function apiErrorOf(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return badValueError(error) ?? databaseUnavailableError(error) ?? new ApiError('internal_error');
}

/** Server side: the failure's API error, its code and field carried in trailing metadata. */
export function toGrpcFailure(error: unknown): GrpcFailure {
  const apiError = apiErrorOf(error);
  const metadata = new Metadata();
  metadata.set(CODE, apiError.code);
  if (apiError.field !== undefined) metadata.set(FIELD, apiError.field);
  return { code: grpcStatusOf(apiError.code) as status, details: apiError.message, metadata };
}

/** Client side: back to the ApiError the service threw; transport failures become service_unavailable. */
export function fromGrpcError(error: ServiceError): ApiError {
  const [code] = error.metadata?.get(CODE) ?? [];
  const [field] = error.metadata?.get(FIELD) ?? [];
  if (isErrorCode(code)) {
    return new ApiError(code, error.details, typeof field === 'string' ? field : undefined);
  }
  if (error.code === status.UNAVAILABLE || error.code === status.DEADLINE_EXCEEDED || error.code === status.CANCELLED) {
    return new ApiError('service_unavailable');
  }
  return new ApiError('internal_error');
}

/**
 * Server side: logs a failure that is not an ApiError (a refused bad value as a warning: the edge let
 * it through; anything else as an error). An ApiError is the service's answer and is not logged.
 */
export function logUnexpectedFailure(logger: Logger, error: unknown, fields: { rpc: string; requestId: string }, message: string): void {
  if (error instanceof ApiError) return;
  const level = apiErrorOf(error).code === 'internal_error' ? 'error' : 'warn';
  logger[level]({ ...fields, err: error }, message);
}
