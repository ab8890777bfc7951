import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { loadCustomersConfig } from './config.ts';
import { startCustomersService } from './customers-service.ts';

const config = loadCustomersConfig();
const logger = createLogger('customers', { level: config.LOG_LEVEL });
const service = await startCustomersService(config, logger);
logger.info({ address: service.address }, 'customers gRPC service listening');

stopOnSignals(logger, () => service.stop());
