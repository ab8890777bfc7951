export { createTestDatabase, openTestPool } from './database.ts';
export type { TestDatabase } from './database.ts';
export { testNatsPrefix } from './nats.ts';
export { testDatabaseServerUrl, testNatsUrl, LOCAL_DATABASE_URL, LOCAL_NATS_URL } from './infrastructure.ts';
export { TestClock } from './clock.ts';
export { eventually } from './eventually.ts';
export { startOtlpReceiver } from './otlp-receiver.ts';
export type { OtlpReceiver, ReceivedSpan, ReceivedMetricPoint, AttributeValue } from './otlp-receiver.ts';
export { captureMetrics } from './metrics.ts';
export type { MetricCapture } from './metrics.ts';
export { captureLogs } from './logs.ts';
export {
  EPHEMERAL_PORTS_FROM,
  freePort,
  startDisposablePostgres,
  startDisposableNats,
  startDisposableNatsCluster,
} from './disposable-servers.ts';
export type { DisposablePostgres, DisposableNats, DisposableNatsCluster } from './disposable-servers.ts';
export { rawRequest } from './raw-http.ts';
export type { RawResponse } from './raw-http.ts';
export { TEST_SECRETS_ENCRYPTION_KEYS, TEST_STATEMENT_PUBLIC_KEYSET, TEST_STATEMENT_SIGNING_KEY } from './secrets.ts';
export { NOT_RUNNING_ADDRESS } from './addresses.ts';
export { startDisposablePostgresCluster } from './postgres-cluster.ts';
export type { DisposablePostgresCluster, PostgresClusterNode } from './postgres-cluster.ts';
export { testPng, SVG_WITH_SCRIPT, GIF_BYTES, BROKEN_PNG } from './images.ts';
