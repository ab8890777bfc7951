import { ensureDatabase, migrateDatabase } from '@hc/db';
import { loadSettlementMigrationConfig } from './config.ts';
import { SETTLEMENT_MIGRATIONS_DIR } from './migrations.ts';

// Creates the service's database if needed and applies pending migrations: `pnpm --filter @hc/settlement migrate`.
// Only the database URL: the migration Job (deploy/helm) has no other variable, the notice secret included.
const config = loadSettlementMigrationConfig();
await ensureDatabase(config.SETTLEMENT_DATABASE_URL);
const applied = await migrateDatabase(config.SETTLEMENT_DATABASE_URL, SETTLEMENT_MIGRATIONS_DIR);
console.log(applied.length ? `settlement: applied ${applied.join(', ')}` : 'settlement: database is up to date');
