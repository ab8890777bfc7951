// What other workspace packages (the platform runner, end-to-end tests) may use of the gateway.
export { startGateway } from './gateway.ts';
export type { RunningGateway } from './gateway.ts';
export { loadGatewayConfig } from './config.ts';
export type { GatewayConfig } from './config.ts';
export { GATEWAY_MIGRATIONS_DIR } from './migrations.ts';
export { MerchantOperations } from './merchant-operations.ts';
export { MerchantStore } from './store/merchant-store.ts';
export { createGatewayPrisma } from './store/prisma.ts';
