// What other workspace packages (the platform runner, end-to-end tests) may use of this service.
export { startSettlementService } from './settlement-service.ts';
export type { RunningSettlementService } from './settlement-service.ts';
export { loadSettlementConfig, publishedSecretWarning } from './config.ts';
export type { SettlementConfig } from './config.ts';
export { SETTLEMENT_MIGRATIONS_DIR } from './migrations.ts';
export { DEFAULT_FX_RATES_USD } from './domain/fx.ts';
export type { FxTable } from './domain/fx.ts';
export type { FxRateSource } from './adapters/fx-rate-source.ts';
// The producer side of the verdict contract, for the cross-context contract tests.
export { verdictReachedEvent } from './adapters/verdict-events.ts';
