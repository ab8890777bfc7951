import { runService } from '@hc/runtime/service';
import { loadPagesConfig } from './config.ts';
import { startPages } from './pages-server.ts';

const config = loadPagesConfig();
await runService({
  name: 'pages',
  logLevel: config.LOG_LEVEL,
  start: (logger) => startPages(config, logger),
  listening: (pages) => ({ url: pages.url }),
  listeningMessage: 'pages listening',
});
