import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { loadEmulatorConfig } from './config.ts';
import { startEmulator } from './emulator-service.ts';

const config = loadEmulatorConfig();
const logger = createLogger('emulator', { level: config.LOG_LEVEL });
const emulator = await startEmulator(config, logger);
logger.info({ url: emulator.url, notices: config.EMULATOR_NOTICE_URL }, 'processor and chain emulator listening');

stopOnSignals(logger, () => emulator.stop());
