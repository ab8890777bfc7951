import { join } from 'node:path';

/** This service's Prisma migrations folder. */
export const ACCOUNTS_MIGRATIONS_DIR = join(import.meta.dirname, '..', 'prisma', 'migrations');
