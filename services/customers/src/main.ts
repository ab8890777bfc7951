import { waitForDatabase } from '@hc/db';
import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { loadCustomersConfig } from './config.ts';
import { startCustomersService } from './customers-service.ts';

const config = loadCustomersConfig();
const logger = createLogger('customers', { level: config.LOG_LEVEL });
// Started while PostgreSQL is away (a restart, a failover)? Wait for it rather than crash-loop.
await waitForDatabase(config.CUSTOMERS_DATABASE_URL, {
  timeoutMs: 120_000,
  onRetry: (error) => logger.warn({ err: error }, 'waiting for the database'),
});
const service = await startCustomersService(config, logger);
logger.info({ address: service.address }, 'customers gRPC service listening');

stopOnSignals(logger, () => service.stop());
