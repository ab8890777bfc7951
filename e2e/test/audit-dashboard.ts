// Every operator CLI action on an account is written to that account's audit log, which the dashboard
// keeps (docs/adr/0056). Tests that run the CLI without a dashboard of their own start this one, so the
// CLI talks to a real audit log of the test's own, never to whatever listens on the default address.
import { createLogger } from '@hc/logging';
import {
  createTestDatabase,
  NOT_RUNNING_ADDRESS,
  TEST_SECRETS_ENCRYPTION_KEYS,
  TEST_STATEMENT_PUBLIC_KEYSET,
  TEST_STATEMENT_SIGNING_KEY,
} from '@hc/test-kit';
import { DASHBOARD_MIGRATIONS_DIR, loadDashboardConfig, startDashboard } from '@hc/dashboard';

export interface AuditDashboard {
  /** host:port of its internal listener: the operator CLI's DASHBOARD_GRPC_ADDRESS. */
  readonly grpcAddress: string;
  stop(): Promise<void>;
}

export async function startAuditDashboard(
  services: { accounts?: string; checkout?: string; customers?: string; webhooks?: string } = {},
  now?: () => Date,
): Promise<AuditDashboard> {
  const database = await createTestDatabase('dashboard', DASHBOARD_MIGRATIONS_DIR);
  const dashboard = await startDashboard(
    loadDashboardConfig({
      DASHBOARD_DATABASE_URL: database.url,
      DASHBOARD_PORT: '0',
      DASHBOARD_GRPC_ADDRESS: '127.0.0.1:0',
      DASHBOARD_SECURE_COOKIES: 'false',
      SECRETS_ENCRYPTION_KEYS: TEST_SECRETS_ENCRYPTION_KEYS,
      STATEMENT_SIGNING_KEY: TEST_STATEMENT_SIGNING_KEY,
      STATEMENT_PUBLIC_KEYSET: TEST_STATEMENT_PUBLIC_KEYSET,
      PUBLIC_BASE_URL: 'http://127.0.0.1',
      ACCOUNTS_GRPC_ADDRESS: services.accounts ?? NOT_RUNNING_ADDRESS,
      CHECKOUT_GRPC_ADDRESS: services.checkout ?? NOT_RUNNING_ADDRESS,
      CUSTOMERS_GRPC_ADDRESS: services.customers ?? NOT_RUNNING_ADDRESS,
      WEBHOOKS_GRPC_ADDRESS: services.webhooks ?? NOT_RUNNING_ADDRESS,
      NOTIFICATIONS_GRPC_ADDRESS: NOT_RUNNING_ADDRESS,
      LOG_LEVEL: 'silent',
    }),
    createLogger('dashboard-audit', { level: 'silent' }),
    now ? { now } : {},
  );
  return {
    grpcAddress: dashboard.grpcAddress,
    async stop() {
      await dashboard.stop();
      await database.drop();
    },
  };
}
