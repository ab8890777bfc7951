import { waitForDatabase } from '@hc/db';
import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { loadNotificationsConfig } from './config.ts';
import { startNotificationsService } from './notifications-service.ts';

const config = loadNotificationsConfig();
const logger = createLogger('notifications', { level: config.LOG_LEVEL });
// Started while PostgreSQL is away (a restart, a failover)? Wait for it rather than crash-loop.
await waitForDatabase(config.NOTIFICATIONS_DATABASE_URL, {
  timeoutMs: 120_000,
  onRetry: (error) => logger.warn({ err: error }, 'waiting for the database'),
});
const service = await startNotificationsService(config, logger);
logger.info({ address: service.address, smtp: `${config.SMTP_HOST}:${config.SMTP_PORT}` }, 'notifications gRPC service listening');

stopOnSignals(logger, () => service.stop());
