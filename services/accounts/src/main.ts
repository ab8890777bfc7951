import { runService } from '@hc/runtime/service';
import { startAccountsService } from './accounts-service.ts';
import { loadAccountsConfig } from './config.ts';

const config = loadAccountsConfig();
await runService({
  name: 'accounts',
  logLevel: config.LOG_LEVEL,
  databaseUrl: config.ACCOUNTS_DATABASE_URL,
  start: (logger) => startAccountsService(config, logger),
  listening: (service) => ({ address: service.address }),
});
