export { migrateDatabase, readMigrations, MigrationError } from './migrate.ts';
export type { MigrationFile } from './migrate.ts';
export { ensureDatabase, dropDatabase, withDatabase, databaseName, withServer, waitForDatabase } from './database.ts';
export { badValueError, databaseUnavailableError, isUniqueViolation, sqlStateOf } from './pg-errors.ts';
export { schemaDrift } from './schema-drift.ts';
export type { PrismaDataModel } from './schema-drift.ts';
export { connectedDatabase, createPool, createSharedDatabase, inTransaction, TRANSACTION_MAX_WAIT_MS } from './pool.ts';
export type { SharedDatabase, TransactionOptions } from './pool.ts';
export { retryWhileDatabaseAway } from './while-away.ts';
