import { createLogger } from '@hc/logging';
import { startCheckoutService } from './checkout-service.ts';
import { loadCheckoutConfig } from './config.ts';

const config = loadCheckoutConfig();
const logger = createLogger('checkout', { level: config.LOG_LEVEL });
const service = await startCheckoutService(config, logger);
logger.info({ address: service.address }, 'checkout gRPC service listening');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining');
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'unclean stop');
        process.exit(1);
      },
    );
  });
}
