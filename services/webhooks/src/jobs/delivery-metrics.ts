/**
 * Delivery metrics (docs/operations.md): exported when @hc/telemetry started the SDK, no-ops otherwise.
 * Labels stay few and bounded (the verdict, the event type); endpoint and account ids belong in
 * traces and the attempt log, not in metric labels.
 */
import { metrics } from '@opentelemetry/api';
import type { AttemptRecord } from '../store/deliveries.ts';

const meter = metrics.getMeter('hc-webhooks');

const attempts = meter.createCounter('hc.webhooks.attempts', {
  description: 'Webhook delivery attempts, by verdict (succeeded, failed, gone = endpoint disabled by 410, …)',
  unit: '{attempt}',
});
const attemptDuration = meter.createHistogram('hc.webhooks.attempt.duration', {
  description: "Time from an attempt's start to the merchant's answer (or the timeout)",
  unit: 's',
});
const deliveryLag = meter.createHistogram('hc.webhooks.delivery.lag', {
  description: 'Time from the payment change to its successful delivery (retries included)',
  unit: 's',
  advice: { explicitBucketBoundaries: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21600, 86400] },
});

export function recordAttemptMetrics(record: AttemptRecord): void {
  const labels = { verdict: record.verdict, 'webhook.event_type': record.delivery.body.type };
  attempts.add(1, labels);
  attemptDuration.record(record.latencyMs / 1000, labels);
  if (record.verdict === 'succeeded') {
    const lagMs = record.finishedAt.getTime() - record.delivery.eventCreated.getTime();
    deliveryLag.record(Math.max(0, lagMs) / 1000, { 'webhook.event_type': record.delivery.body.type });
  }
}
