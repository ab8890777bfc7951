// What other workspace packages (the platform runner, end-to-end tests) may use of the gateway.
export { startGateway } from './gateway.ts';
export type { RunningGateway } from './gateway.ts';
export { startAdminListener } from './admin-listener.ts';
export type { AdminListener } from './admin-listener.ts';
export { loadGatewayConfig } from './config.ts';
export type { GatewayConfig } from './config.ts';
export { GATEWAY_MIGRATIONS_DIR } from './migrations.ts';
export { MerchantOperations } from './merchant-operations.ts';
export { MerchantStore } from './store/merchant-store.ts';
export type { MerchantAccount } from './domain/merchant-account.ts';
export { KeyCache, KEY_CACHE_APPLICATION_NAME, KEY_CHANGES_CHANNEL } from './store/key-cache.ts';
export type { KeyLookup } from './store/key-cache.ts';
export { createGatewayPrisma } from './store/prisma.ts';
