import { runService } from '@hc/runtime/service';
import { startSettlementService } from './settlement-service.ts';
import { loadSettlementConfig } from './config.ts';

const config = loadSettlementConfig();
await runService({
  name: 'settlement',
  logLevel: config.LOG_LEVEL,
  databaseUrl: config.SETTLEMENT_DATABASE_URL,
  start: (logger) => startSettlementService(config, logger),
  listening: (service) => ({ address: service.address }),
});
