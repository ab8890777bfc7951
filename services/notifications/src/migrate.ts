import { ensureDatabase, migrateDatabase } from '@hc/db';
import { loadNotificationsConfig } from './config.ts';
import { NOTIFICATIONS_MIGRATIONS_DIR } from './migrations.ts';

// Creates the service's database if needed and applies pending migrations: `pnpm --filter @hc/notifications migrate`.
const config = loadNotificationsConfig();
await ensureDatabase(config.NOTIFICATIONS_DATABASE_URL);
const applied = await migrateDatabase(config.NOTIFICATIONS_DATABASE_URL, NOTIFICATIONS_MIGRATIONS_DIR);
console.log(applied.length ? `notifications: applied ${applied.join(', ')}` : 'notifications: database is up to date');
