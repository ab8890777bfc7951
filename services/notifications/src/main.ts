import { runService } from '@hc/runtime/service';
import { startNotificationsService } from './notifications-service.ts';
import { loadNotificationsConfig } from './config.ts';

const config = loadNotificationsConfig();
await runService({
  name: 'notifications',
  logLevel: config.LOG_LEVEL,
  databaseUrl: config.NOTIFICATIONS_DATABASE_URL,
  start: (logger) => startNotificationsService(config, logger),
  listening: (service) => ({ address: service.address, smtp: `${config.SMTP_HOST}:${config.SMTP_PORT}` }),
});
