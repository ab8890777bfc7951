import { ensureDatabase, migrateDatabase } from '@hc/db';
import { loadCustomersConfig } from './config.ts';
import { CUSTOMERS_MIGRATIONS_DIR } from './migrations.ts';

// Creates the service's database if needed and applies pending migrations: `pnpm --filter @hc/customers migrate`.
const config = loadCustomersConfig();
await ensureDatabase(config.CUSTOMERS_DATABASE_URL);
const applied = await migrateDatabase(config.CUSTOMERS_DATABASE_URL, CUSTOMERS_MIGRATIONS_DIR);
console.log(applied.length ? `customers: applied ${applied.join(', ')}` : 'customers: database is up to date');
