// What the platform end-to-end tests (the `e2e/` package) and the benchmarks (tools/bench) may use of the
// gateway beyond its public index: internals they assert against or measure (stored idempotency
// records, the key cache and its client of the accounts key directory, the OpenAPI document).
export { IdempotencyStore } from './store/idempotency-store.ts';
export { openApiDocument } from './api/http/openapi/document.ts';
export { OPENAPI_FILE } from './write-openapi.ts';
export { KeyCache } from './adapters/key-cache.ts';
export { keyDirectoryClient } from './adapters/key-directory-client.ts';
export type { KeyDirectoryClient } from './adapters/key-directory-client.ts';
export { createGatewayPrisma } from './store/prisma.ts';
// The Express app alone with its dependencies' shapes, and the key hash, for tools/bench/src/http-pipeline.ts.
export { createGatewayApp } from './api/http/app.ts';
export type { GatewayApp } from './api/http/app.ts';
export { hashApiKey } from './domain/bearer-key.ts';
