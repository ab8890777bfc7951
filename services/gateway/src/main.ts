import { runService } from '@hc/runtime/service';
import { loadGatewayConfig } from './config.ts';
import { startGateway } from './gateway.ts';

const config = loadGatewayConfig();
await runService({
  name: 'gateway',
  logLevel: config.LOG_LEVEL,
  databaseUrl: config.GATEWAY_DATABASE_URL,
  start: (logger) => startGateway(config, logger),
  listening: (gateway) => ({ url: gateway.url }),
  listeningMessage: 'gateway listening',
});
