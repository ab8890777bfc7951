import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { startCheckoutService } from './checkout-service.ts';
import { loadCheckoutConfig } from './config.ts';

const config = loadCheckoutConfig();
const logger = createLogger('checkout', { level: config.LOG_LEVEL });
const service = await startCheckoutService(config, logger);
logger.info({ address: service.address }, 'checkout gRPC service listening');

stopOnSignals(logger, () => service.stop());
