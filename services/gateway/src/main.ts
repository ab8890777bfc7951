import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { loadGatewayConfig } from './config.ts';
import { startGateway } from './gateway.ts';

const config = loadGatewayConfig();
const logger = createLogger('gateway', { level: config.LOG_LEVEL });
const gateway = await startGateway(config, logger);
logger.info({ url: gateway.url }, 'gateway listening');

stopOnSignals(logger, () => gateway.stop());
