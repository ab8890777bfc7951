import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { loadPagesConfig } from './config.ts';
import { startPages } from './pages-server.ts';

const config = loadPagesConfig();
const logger = createLogger('pages', { level: config.LOG_LEVEL });
const pages = await startPages(config, logger);
logger.info({ url: pages.url }, 'pages listening');

stopOnSignals(logger, () => pages.stop());
