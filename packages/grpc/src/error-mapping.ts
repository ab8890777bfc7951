import { Metadata, status, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { ApiError, grpcStatusOf, isErrorCode } from '@hc/errors';

/** Trailing metadata keys that carry the API error code and field across gRPC. */
const CODE = 'hc-error-code';
const FIELD = 'hc-error-field';

export type GrpcFailure = Partial<StatusObject> & { code: status; details: string; metadata: Metadata };

/** Server side: an ApiError keeps its code and field; anything else is an internal error. */
export function toGrpcFailure(error: unknown): GrpcFailure {
  const apiError = error instanceof ApiError ? error : new ApiError('internal_error');
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
