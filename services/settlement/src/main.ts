import { waitForDatabase } from '@hc/db';
import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { loadSettlementConfig } from './config.ts';
import { startSettlementService } from './settlement-service.ts';

const config = loadSettlementConfig();
const logger = createLogger('settlement', { level: config.LOG_LEVEL });
// Started while PostgreSQL is away (a restart, a failover)? Wait for it rather than crash-loop.
await waitForDatabase(config.SETTLEMENT_DATABASE_URL, {
  timeoutMs: 120_000,
  onRetry: (error) => logger.warn({ err: error }, 'waiting for the database'),
});
const service = await startSettlementService(config, logger);
logger.info({ address: service.address }, 'settlement gRPC service listening');

stopOnSignals(logger, () => service.stop());
