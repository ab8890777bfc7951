// What other workspace packages (the platform runner, the operator CLI, end-to-end tests) may use of the gateway.
export { startGateway } from './gateway.ts';
export type { RunningGateway } from './gateway.ts';
export { loadGatewayConfig } from './config.ts';
export type { GatewayConfig } from './config.ts';
export { GATEWAY_MIGRATIONS_DIR } from './migrations.ts';
// The API's objects as the API answers them, which the operator CLI prints.
export { paymentObject } from './api/http/presenters/payment.ts';
export { customerObject } from './api/http/presenters/customer.ts';
