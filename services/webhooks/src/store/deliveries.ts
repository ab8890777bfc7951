import { newId } from '@hc/ids';
import { isFailingTooLong, type AttemptVerdict } from '../domain/attempt-outcome.ts';
import type { Scope } from '../domain/endpoint.ts';
import type { AttemptLogEntry } from '../domain/event-log.ts';
import type { WebhookEventBody } from '../domain/webhook-event.ts';
import { finishDelivery, rescheduleDelivery } from './delivery-writes.ts';
import { queueEndpointAlert } from './endpoint-alerts.ts';
import { disableEndpoint, lockEndpoints, REMOVAL_TRANSACTION } from './endpoints.ts';
import { lockPayment, lockPayments } from './events.ts';
import { isErased, scrubRequestBody } from './erasures.ts';
import type { Prisma } from './generated/prisma/client.ts';
import type { WebhooksPrisma } from './prisma.ts';

/** A delivery this worker holds the lease of: one attempt to make. */
export interface ClaimedDelivery {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly endpointId: string;
  readonly endpointUrl: string;
  readonly scope: Scope;
  readonly paymentId: string | null;
  /** 1 for the first attempt. */
  readonly attemptNumber: number;
  readonly body: WebhookEventBody;
  /** When the source change happened: the delivery lag is measured from it. */
  readonly eventCreated: Date;
  /** The event's trace (ADR 0019): the attempt's span continues it. */
  readonly traceParent: string | null;
}

export interface AttemptRecord {
  readonly delivery: ClaimedDelivery;
  readonly attemptedAt: Date;
  readonly finishedAt: Date;
  readonly verdict: AttemptVerdict;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
  readonly requestBody: string;
  readonly responseSnippet: string | null;
  /** When to try again after a failure; null when the schedule is used up. */
  readonly nextAttemptAt: Date | null;
  readonly disableAfterFailingMs: number;
  /** An enabled endpoint failing this long alerts its merchant once per streak (docs/adr/0049). */
  readonly failingAlertAfterMs: number;
}

/**
 * Attempts one endpoint may have in flight: `healthy` while no attempt failed since its last success,
 * `failing` once one did (its `failing_since` is set), so a struggling server is not hit harder
 * while a healthy one is kept up with (docs/adr/0107).
 */
export interface EndpointSlots {
  readonly healthy: number;
  readonly failing: number;
}

/** A claimed delivery as the claim statement returns it. */
interface ClaimedRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  attempt_count: number;
  url: string;
  account_id: string;
  livemode: boolean;
  payment_id: string | null;
  body: WebhookEventBody;
  created: Date;
  trace_parent: string | null;
}

interface ClaimRow {
  id: string;
  status: string;
  attempt_count: number;
}

/** What an attempt cut short by a crash leaves in the log when its lease runs out. */
export const INTERRUPTED_ERROR = 'interrupted: the worker stopped before the attempt finished';

function attemptRow(record: AttemptRecord, erased: boolean): Prisma.DeliveryAttemptCreateManyInput {
  const { delivery } = record;
  return {
    id: newId('deliveryAttempt', record.attemptedAt.getTime()),
    deliveryId: delivery.deliveryId,
    eventId: delivery.eventId,
    endpointId: delivery.endpointId,
    attemptNumber: delivery.attemptNumber,
    attemptedAt: record.attemptedAt,
    statusCode: record.statusCode,
    error: record.error,
    succeeded: record.verdict === 'succeeded',
    latencyMs: record.latencyMs,
    requestBody: erased ? scrubRequestBody(record.requestBody) : record.requestBody,
    responseSnippet: record.responseSnippet,
    nextAttemptAt: record.verdict === 'failed' ? record.nextAttemptAt : null,
  };
}

/** The only code that knows the webhook_deliveries and delivery_attempts tables. */
export class DeliveryStore {
  private readonly prisma: WebhooksPrisma;

  constructor(prisma: WebhooksPrisma) {
    this.prisma = prisma;
  }

  /** Deliveries not yet done (pending, or being attempted) and the age of the oldest: the hc.queue.* gauges. */
  async backlog(): Promise<{ rows: number; oldestAgeSeconds: number }> {
    const [row] = await this.prisma.$queryRaw<Array<{ rows: number; age: number }>>`
      SELECT count(*)::int AS rows, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS age
        FROM webhook_deliveries WHERE status IN ('pending', 'delivering')`;
    return { rows: row?.rows ?? 0, oldestAgeSeconds: row?.age ?? 0 };
  }

  /**
   * Takes up to `limit` due deliveries, each with a lease until now + leaseMs, and no more than
   * `slots` in flight per endpoint by its health (counting leases held elsewhere). SKIP LOCKED lets several
   * workers claim at once without waiting on each other or taking the same delivery (the due test is
   * repeated on the locked row for that: test/store-races.int.test.ts). A delivery
   * still "delivering" past its lease belonged to a worker that died: it is due again, and its lost
   * attempt is logged as interrupted.
   */
  async claimDue(now: Date, limit: number, slots: EndpointSlots, leaseMs: number): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    const leaseUntil = new Date(now.getTime() + leaseMs);
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<ClaimRow[]>`
        WITH in_flight AS (
          SELECT endpoint_id, count(*)::int AS n FROM webhook_deliveries
           WHERE status = 'delivering' AND lease_expires_at > ${now}
           GROUP BY endpoint_id
        ), due AS (
          SELECT d.id, e.failing_since IS NOT NULL AS failing,
                 row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) + coalesce(f.n, 0) AS slot
            FROM webhook_deliveries d
            JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.status = 'enabled' AND e.deleted_at IS NULL
            LEFT JOIN in_flight f ON f.endpoint_id = d.endpoint_id
           WHERE (d.status = 'pending' AND d.next_attempt_at <= ${now})
              OR (d.status = 'delivering' AND d.lease_expires_at <= ${now})
        )
        SELECT d.id, d.status, d.attempt_count FROM webhook_deliveries d
         WHERE d.id IN (SELECT id FROM due WHERE slot <= CASE WHEN failing THEN ${slots.failing}::int ELSE ${slots.healthy}::int END)
           -- Again on the locked row: a delivery another worker claimed after this statement's
           -- snapshot is re-read once its lock is free, and only d's own conditions are re-checked
           -- then (not the CTE's), so without these it would be claimed and sent a second time.
           AND ((d.status = 'pending' AND d.next_attempt_at <= ${now})
             OR (d.status = 'delivering' AND d.lease_expires_at <= ${now}))
         ORDER BY d.next_attempt_at, d.id
         LIMIT ${limit}
         FOR UPDATE OF d SKIP LOCKED`;
      if (rows.length === 0) return [];
      const ids = rows.map((r) => r.id);
      const interrupted = rows.filter((r) => r.status === 'delivering');
      if (interrupted.length > 0) await this.logInterrupted(tx, interrupted, now);
      // The lease and what the attempt needs (event, endpoint URL) in one round trip.
      const claimed = await tx.$queryRaw<ClaimedRow[]>`
        WITH claimed AS (
          UPDATE webhook_deliveries SET status = 'delivering', attempt_count = attempt_count + 1, lease_expires_at = ${leaseUntil}
           WHERE id = ANY(${ids})
          RETURNING id, event_id, endpoint_id, attempt_count, next_attempt_at
        )
        SELECT c.id, c.event_id, c.endpoint_id, c.attempt_count, p.url, e.account_id, e.livemode, e.payment_id,
               e.body, e.created, e.trace_parent
          FROM claimed c
          JOIN webhook_events e ON e.id = c.event_id
          JOIN webhook_endpoints p ON p.id = c.endpoint_id
         ORDER BY c.next_attempt_at, c.id`;
      return claimed.map((d) => ({
        deliveryId: d.id,
        eventId: d.event_id,
        endpointId: d.endpoint_id,
        endpointUrl: d.url,
        scope: { accountId: d.account_id, livemode: d.livemode },
        paymentId: d.payment_id,
        attemptNumber: d.attempt_count,
        body: d.body,
        eventCreated: d.created,
        traceParent: d.trace_parent,
      }));
    });
  }

  private async logInterrupted(tx: Prisma.TransactionClient, rows: ClaimRow[], now: Date): Promise<void> {
    const deliveries = await tx.webhookDelivery.findMany({ where: { id: { in: rows.map((r) => r.id) } }, include: { event: true } });
    await tx.deliveryAttempt.createMany({
      data: deliveries.map((d) => ({
        id: newId('deliveryAttempt', now.getTime()),
        deliveryId: d.id,
        eventId: d.eventId,
        endpointId: d.endpointId,
        attemptNumber: d.attemptCount,
        attemptedAt: now,
        error: INTERRUPTED_ERROR,
        succeeded: false,
        latencyMs: 0,
        requestBody: JSON.stringify(d.event.body),
      })),
    });
  }

  /**
   * Logs one attempt and moves its delivery and endpoint on, in one transaction: success ends the
   * delivery and clears the endpoint's failing streak; 410 disables the endpoint; another failure
   * schedules the next attempt or, with the schedule used up, fails the delivery and disables an
   * endpoint failing for too long. If the lease was lost meanwhile (another worker took the
   * delivery over), only the log entry is written.
   */
  async recordAttempt(record: AttemptRecord): Promise<void> {
    const { delivery, finishedAt: now } = record;
    // A removal's time limit: disabling the endpoint waits for open fan-outs to it (lockEndpointForRemoval).
    await this.prisma.$transaction(async (tx) => {
      // An erasure that committed while the request was in flight must not be undone by this log
      // entry; the payment's lock makes an erasure committing meanwhile wait for this entry (and scrub it).
      let erased = false;
      if (delivery.paymentId !== null) {
        await lockPayment(tx, delivery.paymentId);
        erased = await isErased(tx, delivery.scope, delivery.paymentId);
      }
      // The endpoint before its deliveries (lockEndpoints): attempts failing at once then disable it
      // and alert once, and never deadlock on each other's deliveries.
      await lockEndpoints(tx, [delivery.endpointId]);
      await tx.deliveryAttempt.create({ data: attemptRow(record, erased) });
      if (record.verdict === 'succeeded') {
        await finishDelivery(tx, delivery, 'succeeded', now);
        await tx.webhookEndpoint.update({ where: { id: delivery.endpointId }, data: { lastSuccessAt: now, failingSince: null } });
        return;
      }
      // The first failure since the last success starts the endpoint's failing streak.
      await tx.webhookEndpoint.updateMany({
        where: { id: delivery.endpointId, failingSince: null },
        data: { failingSince: record.attemptedAt },
      });
      const endpoint = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: delivery.endpointId } });
      if (record.verdict === 'failed' && record.nextAttemptAt !== null) {
        await rescheduleDelivery(tx, delivery, record.nextAttemptAt);
        if (endpoint.status === 'enabled') await queueEndpointAlert(tx, delivery.endpointId, false, now, record.failingAlertAfterMs);
        return;
      }
      await finishDelivery(tx, delivery, 'failed', now);
      if (endpoint.status !== 'enabled') return;
      const disable =
        record.verdict === 'gone' ? 'gone' : isFailingTooLong(endpoint.failingSince, now, record.disableAfterFailingMs) ? 'failing' : null;
      if (disable) await disableEndpoint(tx, delivery.endpointId, disable, now);
      await queueEndpointAlert(tx, delivery.endpointId, disable !== null, now, record.failingAlertAfterMs);
    }, REMOVAL_TRANSACTION);
  }

  /**
   * recordAttempt for successful attempts only, several in one transaction (the worker's group
   * commit): logs them, ends the deliveries still held by these attempts, and clears their
   * endpoints' failing streaks.
   */
  async recordSuccesses(records: readonly AttemptRecord[]): Promise<void> {
    if (records.some((r) => r.verdict !== 'succeeded')) throw new Error('recordSuccesses takes successful attempts only');
    if (records.length === 0) return;
    await this.prisma.$transaction(async (tx) => {
      const paymentIds = [...new Set(records.flatMap((r) => (r.delivery.paymentId === null ? [] : [r.delivery.paymentId])))].sort();
      await lockPayments(tx, paymentIds);
      const erased =
        paymentIds.length === 0
          ? []
          : await tx.erasedPayment.findMany({
              where: { paymentId: { in: paymentIds } },
              select: { paymentId: true, accountId: true, livemode: true },
            });
      const isErasedFor = ({ paymentId, scope }: ClaimedDelivery): boolean =>
        erased.some((e) => e.paymentId === paymentId && e.accountId === scope.accountId && e.livemode === scope.livemode);
      await lockEndpoints(
        tx,
        records.map((r) => r.delivery.endpointId),
      );
      await tx.deliveryAttempt.createMany({ data: records.map((r) => attemptRow(r, isErasedFor(r.delivery))) });
      await tx.$executeRaw`
        UPDATE webhook_deliveries d
           SET status = 'succeeded', completed_at = v.finished_at::timestamptz, lease_expires_at = NULL
          FROM unnest(${records.map((r) => r.delivery.deliveryId)}::text[],
                      ${records.map((r) => r.delivery.attemptNumber)}::int[],
                      ${records.map((r) => r.finishedAt.toISOString())}::text[]) AS v(id, attempt_count, finished_at)
         WHERE d.id = v.id AND d.status = 'delivering' AND d.attempt_count = v.attempt_count`;
      const lastSuccess = new Map<string, Date>();
      for (const r of records) {
        const seen = lastSuccess.get(r.delivery.endpointId);
        if (!seen || seen < r.finishedAt) lastSuccess.set(r.delivery.endpointId, r.finishedAt);
      }
      for (const [endpointId, at] of [...lastSuccess].sort(([a], [b]) => a.localeCompare(b))) {
        await tx.webhookEndpoint.update({ where: { id: endpointId }, data: { lastSuccessAt: at, failingSince: null } });
      }
    });
  }

  /** Every attempt of one event of the scope, oldest first; null when the event is not the caller's. */
  async listAttempts(scope: Scope, eventId: string): Promise<AttemptLogEntry[] | null> {
    const event = await this.prisma.webhookEvent.findFirst({
      where: { id: eventId, accountId: scope.accountId, livemode: scope.livemode },
      select: { id: true },
    });
    if (!event) return null;
    return this.prisma.deliveryAttempt.findMany({ where: { eventId }, orderBy: [{ attemptedAt: 'asc' }, { id: 'asc' }] });
  }
}
