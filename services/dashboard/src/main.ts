import { runService } from '@hc/runtime/service';
import { loadDashboardConfig } from './config.ts';
import { startDashboard } from './dashboard-server.ts';

const config = loadDashboardConfig();
await runService({
  name: 'dashboard',
  logLevel: config.LOG_LEVEL,
  databaseUrl: config.DASHBOARD_DATABASE_URL,
  start: (logger) => startDashboard(config, logger),
  listening: (dashboard) => ({ url: dashboard.url, grpc: dashboard.grpcAddress }),
  listeningMessage: 'dashboard listening',
});
