import { ensureDatabase, migrateDatabase } from '@hc/db';
import { loadGatewayConfig } from './config.ts';
import { GATEWAY_MIGRATIONS_DIR } from './migrations.ts';

// Creates the gateway's database if needed and applies pending migrations: `pnpm --filter @hc/gateway migrate`.
const config = loadGatewayConfig();
await ensureDatabase(config.GATEWAY_DATABASE_URL);
const applied = await migrateDatabase(config.GATEWAY_DATABASE_URL, GATEWAY_MIGRATIONS_DIR);
console.log(applied.length ? `gateway: applied ${applied.join(', ')}` : 'gateway: database is up to date');
