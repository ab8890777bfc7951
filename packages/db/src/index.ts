export { migrateDatabase, readMigrations, MigrationError } from './migrate.ts';
export type { MigrationFile } from './migrate.ts';
export { ensureDatabase, dropDatabase, withDatabase, databaseName, withServer } from './database.ts';
export { isUniqueViolation } from './pg-errors.ts';
