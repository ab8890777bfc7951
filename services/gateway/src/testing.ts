// What the platform end-to-end tests (the `e2e/` package) and the benchmarks (tools/bench) may use of the
// gateway beyond its public index: internals they assert against or measure (stored idempotency
// records, key hashes, the key cache, the OpenAPI document).
export { IdempotencyStore } from './store/idempotency-store.ts';
export { hashApiKey } from './domain/api-key.ts';
export { openApiDocument } from './api/http/openapi/document.ts';
export { OPENAPI_FILE } from './write-openapi.ts';
export { KeyCache, KEY_CACHE_APPLICATION_NAME, KEY_CHANGES_CHANNEL } from './store/key-cache.ts';
export type { KeyLookup } from './store/key-cache.ts';
export { MerchantStore } from './store/merchant-store.ts';
export { createGatewayPrisma } from './store/prisma.ts';
