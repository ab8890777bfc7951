// What other workspace packages (the platform runner, end-to-end tests, other services' tests) may use of this service.
export { startAccountsService } from './accounts-service.ts';
export type { RunningAccountsService } from './accounts-service.ts';
export { loadAccountsConfig } from './config.ts';
export type { AccountsConfig } from './config.ts';
export { ACCOUNTS_MIGRATIONS_DIR } from './migrations.ts';
export type { AccountVerbs, MerchantOperations } from './use-cases/merchant-operations.ts';
// The operator's verbs over gRPC, for the operator CLI and the platform runner.
export { openAccountsOperator } from './api/grpc/operator-client.ts';
export type { AccountsOperator } from './api/grpc/operator-client.ts';
export type { ApiKeyRecord, MerchantAccount } from './domain/merchant-account.ts';
export type { Mode } from './domain/api-key.ts';
export type { AccountStatus } from './domain/merchant-account.ts';
// Both sides of the event contracts, for the cross-context contract tests.
export { accountUpdatedEvent, apiKeyRevokedEvent } from './domain/account-events.ts';
// Key hashes as stored, for tests that look a key up or plant one (the data move's test).
export { hashApiKey } from './domain/api-key.ts';
// The data move from the gateway's database of the previous release (docs/adr/0086), for the platform runner.
export { importAccountsFromGateway } from './store/gateway-import.ts';
export type { GatewayImport } from './store/gateway-import.ts';
