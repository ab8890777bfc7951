import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { loadSettlementConfig } from './config.ts';
import { startSettlementService } from './settlement-service.ts';

const config = loadSettlementConfig();
const logger = createLogger('settlement', { level: config.LOG_LEVEL });
const service = await startSettlementService(config, logger);
logger.info({ address: service.address }, 'settlement gRPC service listening');

stopOnSignals(logger, () => service.stop());
