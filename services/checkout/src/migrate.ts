import { ensureDatabase, migrateDatabase } from '@hc/db';
import { loadCheckoutConfig } from './config.ts';
import { CHECKOUT_MIGRATIONS_DIR } from './migrations.ts';

// Creates the service's database if needed and applies pending migrations: `pnpm --filter @hc/checkout migrate`.
const config = loadCheckoutConfig();
await ensureDatabase(config.CHECKOUT_DATABASE_URL);
const applied = await migrateDatabase(config.CHECKOUT_DATABASE_URL, CHECKOUT_MIGRATIONS_DIR);
console.log(applied.length ? `checkout: applied ${applied.join(', ')}` : 'checkout: database is up to date');
