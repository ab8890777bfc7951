import { join } from 'node:path';

/** This service's migrations folder. */
export const NOTIFICATIONS_MIGRATIONS_DIR = join(import.meta.dirname, '..', 'prisma', 'migrations');
