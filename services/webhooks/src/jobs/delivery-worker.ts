import { groupCommit, WorkLoop, type StepResult } from '@hc/batching';
import { continueTrace } from '@hc/events';
import type { Logger } from '@hc/logging';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { DeliverySettings } from '../config.ts';
import { judgeAttempt } from '../domain/attempt-outcome.ts';
import { nextAttemptDelay } from '../domain/retry-schedule.ts';
import { parseRetryAfter } from '../domain/retry-after.ts';
import { signatureHeaders } from '../domain/signing.ts';
import type { AttemptRecord, DeliveryStore, ClaimedDelivery } from '../store/deliveries.ts';
import type { EndpointStore } from '../store/endpoints.ts';
import { postDelivery, type DeliveryTarget } from '../adapters/delivery-post.ts';
import type { DeliveryConnections } from '../adapters/delivery-connections.ts';
import { recordAttemptMetrics } from './delivery-metrics.ts';
import type { HostResolver } from '../adapters/target-resolver.ts';

/** Retries due within this long wake the worker by a timer of its own; later ones are found by the poll. */
const RETRY_ALARM_MAX_MS = 60_000;

export interface DeliveryWorkerOptions {
  readonly deliveries: DeliveryStore;
  readonly endpoints: EndpointStore;
  readonly settings: DeliverySettings;
  readonly resolver: HostResolver;
  readonly now: () => Date;
  readonly logger: Logger;
  /** Extra trusted CA certificates (PEM) for https endpoints; tests use a self-signed receiver. */
  readonly ca?: string | undefined;
  /** Keep-alive connections to endpoints (docs/adr/0111). */
  readonly connections: DeliveryConnections;
}

export interface DeliveryWorker {
  /**
   * Look for due deliveries now instead of at the next poll (a new event, a resend). A retry this
   * process scheduled wakes it by itself when due (within a minute); others are found by the poll.
   */
  wake(): void;
  /** Claims nothing more and waits for the attempts in flight (each bounded by the timeout). */
  stop(): Promise<void>;
}

/**
 * Sends due deliveries. All state is in PostgreSQL: a claim is a lease on a delivery row, so
 * any number of workers (replicas) share the work, and a restart picks up where the last process
 * stopped — a lease left by a killed process runs out and the delivery is taken again.
 *
 * Up to `concurrency` attempts run at once, at most `concurrencyPerEndpoint` of them to one healthy
 * endpoint and `concurrencyPerFailingEndpoint` to one failing since its last success, so a slow or
 * timing-out endpoint holds only its own few slots while others are served, and a healthy endpoint of
 * a busy shop is kept up with (docs/adr/0107).
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { deliveries, settings, resolver, now, logger } = options;
  const target: DeliveryTarget = {
    resolver,
    allowPrivateTargets: settings.allowPrivateTargets,
    timeoutMs: settings.timeoutMs,
    ca: options.ca,
    connections: options.connections,
  };
  const inFlight = new Set<Promise<void>>();
  const slotsPerEndpoint = { healthy: settings.concurrencyPerEndpoint, failing: settings.concurrencyPerFailingEndpoint };
  const loop = new WorkLoop({ step: claimAndStart, pollIntervalMs: settings.pollIntervalMs });
  const wake = (): void => loop.wake();
  /** Wakes the loop when a retry this process scheduled is due, rather than at the next poll after it. */
  const wakeAt = (due: Date): void => {
    const inMs = due.getTime() - now().getTime();
    // A retry minutes away gains nothing worth a timer over the poll (at most one poll late).
    if (inMs <= RETRY_ALARM_MAX_MS) loop.wakeIn(inMs);
  };

  // Group commit of successful attempts: those that finish while a transaction records others wait
  // for the next one, which takes all of them. Each attempt's promise settles once its record committed.
  const recordSuccess = groupCommit<AttemptRecord>({
    many: (records) => deliveries.recordSuccesses(records),
    one: (record) => deliveries.recordAttempt(record),
  });

  const attempts: AttemptRun = { options, target, recordSuccess };

  /** Claims what is due for the free slots and starts an attempt for each (they run on their own). */
  async function claimAndStart(): Promise<StepResult> {
    const free = settings.concurrency - inFlight.size;
    let claimed: ClaimedDelivery[] = [];
    try {
      claimed = await deliveries.claimDue(now(), free, slotsPerEndpoint, settings.leaseMs);
    } catch (error) {
      logger.warn({ err: error }, 'delivery worker: could not claim deliveries; retrying');
    }
    for (const delivery of claimed) {
      const running: Promise<void> = tracedAttempt(attempts, delivery)
        .then((record) => {
          if (record.nextAttemptAt !== null) wakeAt(record.nextAttemptAt);
        })
        .catch((error: unknown) => {
          // The lease runs out and the delivery is tried again; nothing is lost.
          logger.error({ err: error, deliveryId: delivery.deliveryId }, 'delivery worker: attempt could not be completed');
        })
        .finally(() => {
          inFlight.delete(running);
          wake();
        });
      inFlight.add(running);
    }
    // A full claim means more may be due: go again at once.
    return { again: claimed.length > 0 && claimed.length === free };
  }

  loop.start();
  let stopping: Promise<void> | undefined;
  return {
    wake,
    stop() {
      stopping ??= (async () => {
        await loop.stop();
        await Promise.allSettled([...inFlight]);
      })();
      return stopping;
    },
  };
}

/** What one attempt needs from its worker. */
interface AttemptRun {
  readonly options: DeliveryWorkerOptions;
  readonly target: DeliveryTarget;
  /** Records a successful attempt together with the others finishing meanwhile (group commit). */
  readonly recordSuccess: (record: AttemptRecord) => Promise<void>;
}

/**
 * One attempt is one span of the event's trace (ADR 0019), so a payment's trace runs from the API
 * request to the merchant's answer; the POST carries that trace's `traceparent`, so the merchant can
 * join our trace to theirs.
 */
function tracedAttempt(run: AttemptRun, delivery: ClaimedDelivery): Promise<AttemptRecord> {
  const attributes = {
    'webhook.event_id': delivery.eventId,
    'webhook.event_type': delivery.body.type,
    'webhook.endpoint_id': delivery.endpointId,
    'webhook.delivery_id': delivery.deliveryId,
    'webhook.attempt': delivery.attemptNumber,
  };
  return continueTrace(
    delivery.traceParent,
    `webhook delivery ${delivery.body.type}`,
    { kind: SpanKind.CLIENT, attributes },
    async (span) => {
      const record = await attempt(run, delivery);
      recordAttemptMetrics(record);
      span.setAttribute('webhook.verdict', record.verdict);
      if (record.statusCode !== null) span.setAttribute('http.response.status_code', record.statusCode);
      if (record.verdict !== 'succeeded')
        span.setStatus({ code: SpanStatusCode.ERROR, message: record.error ?? `HTTP ${record.statusCode}` });
      return record;
    },
  );
}

/** POSTs one signed delivery and records the attempt (successes by group commit). */
async function attempt(run: AttemptRun, delivery: ClaimedDelivery): Promise<AttemptRecord> {
  const { deliveries, endpoints, settings, now, logger } = run.options;
  const log = logger.child({ deliveryId: delivery.deliveryId, eventId: delivery.eventId, endpointId: delivery.endpointId });
  const attemptedAt = now();
  const requestBody = JSON.stringify(delivery.body);
  const secrets = await endpoints.signingSecrets(delivery.endpointId, attemptedAt);
  const started = performance.now();
  const signed = signatureHeaders(secrets, delivery.eventId, attemptedAt, requestBody);
  const result = await postDelivery(run.target, delivery.endpointUrl, signed, requestBody);
  const latencyMs = Math.round(performance.now() - started);
  const finishedAt = now();
  const verdict = judgeAttempt(result);
  const retryAfterMs = result.kind === 'response' ? parseRetryAfter(result.retryAfter, finishedAt, settings.retryAfterMaxMs) : null;
  const delay = verdict === 'failed' ? nextAttemptDelay(settings.retrySchedule, delivery.attemptNumber, retryAfterMs) : null;
  const record: AttemptRecord = {
    delivery,
    attemptedAt,
    finishedAt,
    verdict,
    statusCode: result.kind === 'response' ? result.statusCode : null,
    error: result.kind === 'error' ? result.error : null,
    latencyMs,
    requestBody,
    responseSnippet: result.kind === 'response' ? result.snippet : null,
    nextAttemptAt: delay === null ? null : new Date(finishedAt.getTime() + delay),
    disableAfterFailingMs: settings.disableAfterFailingMs,
    failingAlertAfterMs: settings.failingAlertAfterMs,
  };
  // Successes (nearly all attempts) are logged together, by group commit; a failure alone.
  if (verdict === 'succeeded') await run.recordSuccess(record);
  else await deliveries.recordAttempt(record);
  log.debug(
    { attempt: delivery.attemptNumber, verdict, latencyMs, status: result.kind === 'response' ? result.statusCode : result.error },
    'webhook attempt',
  );
  return record;
}
