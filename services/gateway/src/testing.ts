// What the platform end-to-end tests (the `e2e/` package) may use of the gateway beyond its public
// index: internals they assert against (stored idempotency records, key hashes, the OpenAPI document).
export { IdempotencyStore } from './store/idempotency-store.ts';
export { hashApiKey } from './domain/api-key.ts';
export { openApiDocument } from './http/openapi/document.ts';
export { OPENAPI_FILE } from './write-openapi.ts';
