import { waitForDatabase } from '@hc/db';
import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { loadWebhooksConfig } from './config.ts';
import { startWebhooksService } from './webhooks-service.ts';

const config = loadWebhooksConfig();
const logger = createLogger('webhooks', { level: config.LOG_LEVEL });
// Started while PostgreSQL is away (a restart, a failover)? Wait for it rather than crash-loop.
await waitForDatabase(config.WEBHOOKS_DATABASE_URL, {
  timeoutMs: 120_000,
  onRetry: (error) => logger.warn({ err: error }, 'waiting for the database'),
});
const service = await startWebhooksService(config, logger);
logger.info({ address: service.address }, 'webhooks gRPC service listening');

stopOnSignals(logger, () => service.stop());
