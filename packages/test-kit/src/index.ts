export { createTestDatabase } from './database.ts';
export type { TestDatabase } from './database.ts';
export { testNatsPrefix } from './nats.ts';
export { testDatabaseServerUrl, testNatsUrl, LOCAL_DATABASE_URL, LOCAL_NATS_URL } from './infrastructure.ts';
export { TestClock } from './clock.ts';
export { eventually } from './eventually.ts';
export { startOtlpReceiver } from './otlp-receiver.ts';
export type { OtlpReceiver, ReceivedSpan, ReceivedMetricPoint, AttributeValue } from './otlp-receiver.ts';
