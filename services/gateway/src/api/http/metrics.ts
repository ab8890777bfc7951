/**
 * Gateway metrics beyond the HTTP durations the instrumentation records (docs/operations.md).
 * No-ops unless @hc/telemetry started the SDK. Labels are bounded: error codes and nothing per merchant.
 */
import { metrics } from '@opentelemetry/api';

const meter = metrics.getMeter('hc-gateway');

/** API error answers by code: `rate_limited` counts rate-limit rejections, `idempotency_conflict` conflicts. */
export const apiErrors = meter.createCounter('hc.api.errors', { description: 'API error responses, by error code', unit: '{response}' });

/** Creates answered from an Idempotency-Key already used with the same body (200, no new session). */
export const idempotencyReplays = meter.createCounter('hc.idempotency.replays', {
  description: 'Creates answered by an idempotent replay',
  unit: '{request}',
});
