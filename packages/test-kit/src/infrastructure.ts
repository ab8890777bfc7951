/**
 * Where the test infrastructure is. A Docker engine (a platform team's laptop, a CI with Docker)
 * gets throw-away PostgreSQL and NATS containers through testcontainers; machines without one use
 * the local servers (PostgreSQL on 127.0.0.1:5432, NATS on 127.0.0.1:4222). TEST_DATABASE_URL and
 * TEST_NATS_URL, when set, win over both.
 */
export const LOCAL_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
export const LOCAL_NATS_URL = 'nats://127.0.0.1:4222';

export function testDatabaseServerUrl(): string {
  return process.env['TEST_DATABASE_URL'] ?? LOCAL_DATABASE_URL;
}

export function testNatsUrl(): string {
  return process.env['TEST_NATS_URL'] ?? LOCAL_NATS_URL;
}
