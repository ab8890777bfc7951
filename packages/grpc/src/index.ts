export { createGrpcServer, status } from './server.ts';
export type { GrpcServer } from './server.ts';
export { createServiceClient } from './client.ts';
export type { ServiceClient, CallOptions } from './client.ts';
export type { ServiceHandlers } from './service.ts';
export { contextFromMetadata, contextToMetadata, publicContextFromMetadata } from './call-context.ts';
export type { CallContext, PublicCallContext } from './call-context.ts';
export { apiErrorOf, toGrpcFailure, fromGrpcError } from './error-mapping.ts';
export { checkGrpcHealth } from './health-check.ts';
