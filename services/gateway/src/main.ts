import { waitForDatabase } from '@hc/db';
import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { loadGatewayConfig } from './config.ts';
import { startGateway } from './gateway.ts';

const config = loadGatewayConfig();
const logger = createLogger('gateway', { level: config.LOG_LEVEL });
// Started while PostgreSQL is away (a restart, a failover)? Wait for it rather than crash-loop.
await waitForDatabase(config.GATEWAY_DATABASE_URL, {
  timeoutMs: 120_000,
  onRetry: (error) => logger.warn({ err: error }, 'waiting for the database'),
});
const gateway = await startGateway(config, logger);
logger.info({ url: gateway.url }, 'gateway listening');

stopOnSignals(logger, () => gateway.stop());
