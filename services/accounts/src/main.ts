import { waitForDatabase } from '@hc/db';
import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { startAccountsService } from './accounts-service.ts';
import { loadAccountsConfig } from './config.ts';

const config = loadAccountsConfig();
const logger = createLogger('accounts', { level: config.LOG_LEVEL });
// Started while PostgreSQL is away (a restart, a failover)? Wait for it rather than crash-loop.
await waitForDatabase(config.ACCOUNTS_DATABASE_URL, {
  timeoutMs: 120_000,
  onRetry: (error) => logger.warn({ err: error }, 'waiting for the database'),
});
const service = await startAccountsService(config, logger);
logger.info({ address: service.address }, 'accounts gRPC service listening');

stopOnSignals(logger, () => service.stop());
