import { ensureDatabase, migrateDatabase } from '@hc/db';
import { loadDashboardConfig } from './config.ts';
import { DASHBOARD_MIGRATIONS_DIR } from './migrations.ts';

// Creates the service's database if needed and applies pending migrations: `pnpm --filter @hc/dashboard migrate`.
const config = loadDashboardConfig();
await ensureDatabase(config.DASHBOARD_DATABASE_URL);
const applied = await migrateDatabase(config.DASHBOARD_DATABASE_URL, DASHBOARD_MIGRATIONS_DIR);
console.log(applied.length ? `dashboard: applied ${applied.join(', ')}` : 'dashboard: database is up to date');
