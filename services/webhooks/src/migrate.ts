import { ensureDatabase, migrateDatabase } from '@hc/db';
import { loadWebhooksConfig } from './config.ts';
import { WEBHOOKS_MIGRATIONS_DIR } from './migrations.ts';

// Creates the service's database if needed and applies pending migrations: `pnpm --filter @hc/webhooks migrate`.
const config = loadWebhooksConfig();
await ensureDatabase(config.WEBHOOKS_DATABASE_URL);
const applied = await migrateDatabase(config.WEBHOOKS_DATABASE_URL, WEBHOOKS_MIGRATIONS_DIR);
console.log(applied.length ? `webhooks: applied ${applied.join(', ')}` : 'webhooks: database is up to date');
