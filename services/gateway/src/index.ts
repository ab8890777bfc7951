// What other workspace packages (the platform runner, the operator CLI, end-to-end tests) may use of the gateway.
export { startGateway } from './gateway.ts';
export type { RunningGateway } from './gateway.ts';
export type { AdminListener } from './admin-listener.ts';
export { loadGatewayConfig } from './config.ts';
export type { GatewayConfig } from './config.ts';
export { GATEWAY_MIGRATIONS_DIR } from './migrations.ts';
export { openMerchantAccounts } from './merchant-accounts.ts';
export type { MerchantAccounts } from './merchant-accounts.ts';
export type { MerchantOperations } from './merchant-operations.ts';
export type { ApiKeyRecord, MerchantAccount } from './domain/merchant-account.ts';
export type { Mode } from './domain/api-key.ts';
// The API's objects as the API answers them, which the operator CLI prints.
export { paymentObject } from './api/http/presenters/payment.ts';
export { customerObject } from './api/http/presenters/customer.ts';
