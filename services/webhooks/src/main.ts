import { runService } from '@hc/runtime/service';
import { startWebhooksService } from './webhooks-service.ts';
import { loadWebhooksConfig } from './config.ts';

const config = loadWebhooksConfig();
await runService({
  name: 'webhooks',
  logLevel: config.LOG_LEVEL,
  databaseUrl: config.WEBHOOKS_DATABASE_URL,
  start: (logger) => startWebhooksService(config, logger),
  listening: (service) => ({ address: service.address }),
});
