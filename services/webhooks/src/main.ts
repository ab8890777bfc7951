import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { loadWebhooksConfig } from './config.ts';
import { startWebhooksService } from './webhooks-service.ts';

const config = loadWebhooksConfig();
const logger = createLogger('webhooks', { level: config.LOG_LEVEL });
const service = await startWebhooksService(config, logger);
logger.info({ address: service.address }, 'webhooks gRPC service listening');

stopOnSignals(logger, () => service.stop());
