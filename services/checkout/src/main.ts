import { waitForDatabase } from '@hc/db';
import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { startCheckoutService } from './checkout-service.ts';
import { loadCheckoutConfig } from './config.ts';

const config = loadCheckoutConfig();
const logger = createLogger('checkout', { level: config.LOG_LEVEL });
// Started while PostgreSQL is away (a restart, a failover)? Wait for it rather than crash-loop.
await waitForDatabase(config.CHECKOUT_DATABASE_URL, {
  timeoutMs: 120_000,
  onRetry: (error) => logger.warn({ err: error }, 'waiting for the database'),
});
const service = await startCheckoutService(config, logger);
logger.info({ address: service.address }, 'checkout gRPC service listening');

stopOnSignals(logger, () => service.stop());
