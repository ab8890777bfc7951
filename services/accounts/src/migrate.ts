import { ensureDatabase, migrateDatabase } from '@hc/db';
import { loadAccountsConfig } from './config.ts';
import { ACCOUNTS_MIGRATIONS_DIR } from './migrations.ts';

// Creates the service's database if needed and applies pending migrations: `pnpm --filter @hc/accounts migrate`.
const config = loadAccountsConfig();
await ensureDatabase(config.ACCOUNTS_DATABASE_URL);
const applied = await migrateDatabase(config.ACCOUNTS_DATABASE_URL, ACCOUNTS_MIGRATIONS_DIR);
console.log(applied.length ? `accounts: applied ${applied.join(', ')}` : 'accounts: database is up to date');
