import { runService } from '@hc/runtime/service';
import { startCheckoutService } from './checkout-service.ts';
import { loadCheckoutConfig } from './config.ts';

const config = loadCheckoutConfig();
await runService({
  name: 'checkout',
  logLevel: config.LOG_LEVEL,
  databaseUrl: config.CHECKOUT_DATABASE_URL,
  start: (logger) => startCheckoutService(config, logger),
  listening: (service) => ({ address: service.address }),
});
