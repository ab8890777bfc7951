import { parseArgs } from 'node:util';
import { ensureDatabase, migrateDatabase } from '@hc/db';
import { loadAccountsConfig } from './config.ts';
import { ACCOUNTS_MIGRATIONS_DIR } from './migrations.ts';
import { importAccountsFromGateway } from './store/gateway-import.ts';

// Creates the service's database if needed and applies pending migrations: `pnpm --filter @hc/accounts migrate`.
// With --import-from-gateway-database-url URL (or ACCOUNTS_IMPORT_FROM_GATEWAY_DATABASE_URL), then copies
// the accounts and keys the gateway's database of the previous release holds (idempotent; docs/adr/0086).
const { values } = parseArgs({ options: { 'import-from-gateway-database-url': { type: 'string' } } });
const importFrom = values['import-from-gateway-database-url'] ?? process.env['ACCOUNTS_IMPORT_FROM_GATEWAY_DATABASE_URL'];
const config = loadAccountsConfig();
await ensureDatabase(config.ACCOUNTS_DATABASE_URL);
const applied = await migrateDatabase(config.ACCOUNTS_DATABASE_URL, ACCOUNTS_MIGRATIONS_DIR);
console.log(applied.length ? `accounts: applied ${applied.join(', ')}` : 'accounts: database is up to date');
if (importFrom) {
  const moved = await importAccountsFromGateway(config.ACCOUNTS_DATABASE_URL, importFrom);
  console.log(
    `accounts: from the gateway's database, ${moved.accounts} accounts and ${moved.keys} keys copied, ${moved.revocations} revocations carried over`,
  );
}
