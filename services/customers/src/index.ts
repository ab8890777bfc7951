// What other workspace packages (the platform runner, the gateway, end-to-end tests) may use of this service.
export { startCustomersService } from './customers-service.ts';
export type { RunningCustomersService, CustomersOptions } from './customers-service.ts';
export { loadCustomersConfig } from './config.ts';
export type { CustomersConfig } from './config.ts';
export { CUSTOMERS_MIGRATIONS_DIR } from './migrations.ts';
// Both sides of the event contracts, for the cross-context contract tests (e2e/test/event-contracts.test.ts).
export { customerErasedEvent, customerErasedPayload } from './domain/erasure.ts';
export { parseCheckoutEvent } from './domain/checkout-events.ts';
