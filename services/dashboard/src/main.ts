import { waitForDatabase } from '@hc/db';
import { createLogger } from '@hc/logging';
import { stopOnSignals } from '@hc/runtime';
import { loadDashboardConfig } from './config.ts';
import { startDashboard } from './dashboard-server.ts';

const config = loadDashboardConfig();
const logger = createLogger('dashboard', { level: config.LOG_LEVEL });
// Started while PostgreSQL is away (a restart, a failover)? Wait for it rather than crash-loop.
await waitForDatabase(config.DASHBOARD_DATABASE_URL, {
  timeoutMs: 120_000,
  onRetry: (error) => logger.warn({ err: error }, 'waiting for the database'),
});
const dashboard = await startDashboard(config, logger);
logger.info({ url: dashboard.url, grpc: dashboard.grpcAddress }, 'dashboard listening');

stopOnSignals(logger, () => dashboard.stop());
