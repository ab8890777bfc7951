export { API_ERRORS, ApiError, httpStatusOf, grpcStatusOf, isErrorCode } from './api-error.ts';
export type { ErrorCode, ErrorBody } from './api-error.ts';
