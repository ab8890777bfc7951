import { runService } from '@hc/runtime/service';
import { startCustomersService } from './customers-service.ts';
import { loadCustomersConfig } from './config.ts';

const config = loadCustomersConfig();
await runService({
  name: 'customers',
  logLevel: config.LOG_LEVEL,
  databaseUrl: config.CUSTOMERS_DATABASE_URL,
  start: (logger) => startCustomersService(config, logger, { ackWaitMs: config.CUSTOMERS_EVENT_ACK_WAIT_MS }),
  listening: (service) => ({ address: service.address }),
});
