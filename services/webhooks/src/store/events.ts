import type { SqlClient } from '@hc/events';
import { newId } from '@hc/ids';
import type { Scope } from '../domain/endpoint.ts';
import type { StoredEvent } from '../domain/event-log.ts';
import { filterMatches, type WebhookEventType } from '../domain/event-types.ts';
import { withoutCustomerDetails, type WebhookEventBody } from '../domain/webhook-event.ts';
import type { Prisma } from './generated/prisma/client.ts';
import type { WebhooksPrisma } from './prisma.ts';

type Tx = Prisma.TransactionClient;
type Row = Prisma.WebhookEventGetPayload<object>;

/** Narrows an event listing: a type, and a creation window (`notBefore` is the retention cut). */
export interface EventFilter {
  readonly type?: string | undefined;
  readonly createdGte?: Date | undefined;
  readonly createdLt?: Date | undefined;
  readonly notBefore?: Date | undefined;
  readonly paymentId?: string | undefined;
}

function createdWhere(filter: EventFilter): { gte?: Date; lt?: Date } {
  const lower = [filter.createdGte, filter.notBefore].filter((d): d is Date => d !== undefined);
  return {
    ...(lower.length > 0 ? { gte: new Date(Math.max(...lower.map((d) => d.getTime()))) } : {}),
    ...(filter.createdLt === undefined ? {} : { lt: filter.createdLt }),
  };
}

export function toStoredEvent(row: Row): StoredEvent {
  return {
    id: row.id,
    accountId: row.accountId,
    livemode: row.livemode,
    type: row.type as WebhookEventType,
    paymentId: row.paymentId,
    body: row.body as unknown as WebhookEventBody,
  };
}

/** markProcessed (@hc/events) speaks plain SQL; inside a Prisma transaction it goes through the transaction. */
export function sqlOf(tx: Tx): SqlClient {
  return { query: async (sql, params) => ({ rowCount: await tx.$executeRawUnsafe(sql, ...params) }) };
}

/**
 * Serializes everything that writes one payment's event bodies: recording an event and erasing the
 * payment's customer details. Without it an event recorded while an erasure commits could keep the
 * details (each transaction would miss the other's uncommitted row).
 */
export async function lockPayment(tx: Tx, paymentId: string): Promise<void> {
  await lockPayments(tx, [paymentId]);
}

/**
 * lockPayment for several payments in one round trip, taken one after the other in the order given
 * (the array's order, WITH ORDINALITY): callers pass them sorted, so two transactions never wait on
 * each other in opposite orders.
 */
export async function lockPayments(tx: Tx, sortedPaymentIds: readonly string[]): Promise<void> {
  if (sortedPaymentIds.length === 0) return;
  await tx.$queryRaw`
    SELECT pg_advisory_xact_lock(hashtext('hc-webhooks-payment'), hashtext(t.id))::text
      FROM unnest(${[...sortedPaymentIds]}::text[]) WITH ORDINALITY AS t(id, n)
     ORDER BY t.n`;
}

/** Queues a delivery of `eventId` to each endpoint still enabled, due at once; returns the endpoints queued. */
export async function queueDeliveries(tx: Tx, eventId: string, endpointIds: readonly string[], now: Date): Promise<string[]> {
  const queued = await queueDeliveryRows(
    tx,
    endpointIds.map((endpointId) => ({ eventId, endpointId })),
    now,
  );
  return queued.map((row) => row.endpointId);
}

interface QueuedDelivery {
  readonly eventId: string;
  readonly endpointId: string;
}

/**
 * Queues deliveries, due at once, to those endpoints that are still enabled and not deleted as the
 * rows are written, and returns the ones queued. The caller read the endpoints earlier; one disabled
 * or deleted since then must get nothing, because its disable or delete has already cancelled its
 * open deliveries and would never see this one: it would stay pending for good, and be sent if the
 * endpoint were enabled again. FOR KEY SHARE holds each endpoint as the foreign key's check does,
 * and disabling or deleting takes FOR UPDATE first (lockEndpointForRemoval), so the two serialize:
 * a removal that committed first is seen here (PostgreSQL re-reads a row it waited for), and one
 * that waits for this lock cancels these deliveries after our commit.
 */
async function queueDeliveryRows(tx: Tx, rows: readonly QueuedDelivery[], now: Date): Promise<QueuedDelivery[]> {
  if (rows.length === 0) return [];
  const ids = rows.map(() => newId('webhookDelivery', now.getTime()));
  return tx.$queryRaw<QueuedDelivery[]>`
    INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, attempt_count, next_attempt_at, created_at)
    SELECT q.id, q.event_id, q.endpoint_id, 'pending', 0, ${now}::timestamptz, ${now}::timestamptz
      FROM unnest(${ids}::text[], ${rows.map((r) => r.eventId)}::text[], ${rows.map((r) => r.endpointId)}::text[])
             AS q(id, event_id, endpoint_id)
      JOIN webhook_endpoints e ON e.id = q.endpoint_id
     WHERE e.status = 'enabled' AND e.deleted_at IS NULL
     ORDER BY e.id
       FOR KEY SHARE OF e
    RETURNING event_id AS "eventId", endpoint_id AS "endpointId"`;
}

function sameScope(row: { accountId: string; livemode: boolean }, scope: Scope): boolean {
  return row.accountId === scope.accountId && row.livemode === scope.livemode;
}

/**
 * markProcessed (@hc/events) for many message ids in one statement: the ids not seen before by
 * `consumer` (the others were applied already, or are being applied by a transaction this one waits for).
 */
async function markProcessedMany(tx: Tx, consumer: string, msgIds: readonly string[]): Promise<Set<string>> {
  const rows = await tx.$queryRaw<{ msg_id: string }[]>`
    INSERT INTO processed_messages (consumer, msg_id) SELECT ${consumer}, unnest(${msgIds}::text[])
    ON CONFLICT DO NOTHING RETURNING msg_id`;
  return new Set(rows.map((r) => r.msg_id));
}

/** Enabled endpoints of any of the scopes, oldest first. */
async function enabledEndpointsOf(tx: Tx, scopes: readonly Scope[]) {
  const distinct = [...new Map(scopes.map((s) => [`${s.accountId}\u0000${s.livemode}`, s])).values()];
  return tx.webhookEndpoint.findMany({
    where: { OR: distinct.map((s) => ({ accountId: s.accountId, livemode: s.livemode })), status: 'enabled', deletedAt: null },
    select: { id: true, accountId: true, livemode: true, enabledEvents: true },
    orderBy: { createdAt: 'asc' },
  });
}

/** Enabled endpoints of the scope whose filter takes `type`. */
export async function matchingEndpointIds(tx: Tx | WebhooksPrisma, scope: Scope, type: WebhookEventType): Promise<string[]> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { accountId: scope.accountId, livemode: scope.livemode, status: 'enabled', deletedAt: null },
    select: { id: true, enabledEvents: true },
    orderBy: { createdAt: 'asc' },
  });
  return endpoints.filter((e) => filterMatches(e.enabledEvents, type)).map((e) => e.id);
}

export interface NewPaymentEvent {
  readonly scope: Scope;
  readonly sourceMsgId: string;
  readonly paymentId: string;
  /** When the change happened in checkout, in milliseconds (the body's `created` is in seconds). */
  readonly occurredAt: Date;
  readonly body: WebhookEventBody;
  /** The trace the event continues (the consumer span of its source message); null outside a trace. */
  readonly traceParent: string | null;
}

/** Thrown inside a ping's transaction to roll it back: its endpoint is no longer enabled. */
class EndpointNotEnabled extends Error {}

/** The only code that knows the webhook_events table (and queues the deliveries an event fans out to). */
export class EventStore {
  private readonly prisma: WebhooksPrisma;

  constructor(prisma: WebhooksPrisma) {
    this.prisma = prisma;
  }

  /**
   * Records the webhook events of source events and queues their deliveries, in one transaction with
   * the consumer's processed-message marks (the consumer's group commit: a handful of statements for
   * the whole batch): each applied once however often JetStream delivers it. A payment whose customer
   * was erased gets its event without the customer's details. All are applied, or — when the
   * transaction fails — none. Results are in the order of `events`: the number of deliveries queued,
   * or null for a source event already applied.
   */
  async recordPaymentEvents(consumer: string, events: readonly NewPaymentEvent[], now: Date): Promise<(number | null)[]> {
    if (events.length === 0) return [];
    return this.prisma.$transaction(async (tx) => {
      const results: (number | null)[] = events.map(() => null);
      const fresh = await markProcessedMany(tx, consumer, [...new Set(events.map((e) => e.sourceMsgId))]);
      // A message id twice in one batch (a redelivery beside its original) is applied once, by its first copy.
      const todo = events.map((event, index) => ({ event, index })).filter(({ event }) => fresh.delete(event.sourceMsgId));
      if (todo.length === 0) return results;
      // Sorted as erasures sort them, so the two never wait on each other in opposite orders.
      const paymentIds = [...new Set(todo.map(({ event }) => event.paymentId))].sort();
      await lockPayments(tx, paymentIds);
      const erased = await tx.erasedPayment.findMany({
        where: { paymentId: { in: paymentIds } },
        select: { paymentId: true, accountId: true, livemode: true },
      });
      const items = todo.map(({ event, index }) => {
        const isErased = erased.some((r) => r.paymentId === event.paymentId && sameScope(r, event.scope));
        return { event, index, body: isErased ? withoutCustomerDetails(event.body) : event.body };
      });
      const inserted = await tx.webhookEvent.createManyAndReturn({
        data: items.map(({ event, body }) => ({
          id: body.id,
          accountId: event.scope.accountId,
          livemode: event.scope.livemode,
          type: body.type,
          sourceMsgId: event.sourceMsgId,
          paymentId: event.paymentId,
          // Millisecond precision: events of one payment in one second keep their order here.
          created: event.occurredAt,
          body: body as unknown as Prisma.InputJsonValue,
          createdAt: now,
          traceParent: event.traceParent,
        })),
        // The derived evt_ id and the unique source_msg_id: a second copy of the source event (one the
        // processed-message record no longer remembers) still makes no second webhook event.
        skipDuplicates: true,
        select: { id: true },
      });
      const insertedIds = new Set(inserted.map((r) => r.id));
      const created = items.filter(({ body }) => insertedIds.has(body.id));
      for (const { index } of items) results[index] = 0;
      if (created.length === 0) return results;
      const endpoints = await enabledEndpointsOf(
        tx,
        created.map(({ event }) => event.scope),
      );
      const deliveries: QueuedDelivery[] = [];
      for (const { event, body } of created) {
        for (const e of endpoints) {
          if (sameScope(e, event.scope) && filterMatches(e.enabledEvents, body.type))
            deliveries.push({ eventId: body.id, endpointId: e.id });
        }
      }
      const queued = await queueDeliveryRows(tx, deliveries, now);
      for (const { index, body } of created) results[index] = queued.filter((q) => q.eventId === body.id).length;
      return results;
    });
  }

  /**
   * Records a ping event and its one delivery; null (nothing recorded) when the endpoint was disabled
   * or deleted after the caller read it.
   */
  async recordPing(
    scope: Scope,
    endpointId: string,
    body: WebhookEventBody,
    now: Date,
    traceParent: string | null,
  ): Promise<StoredEvent | null> {
    try {
      return await this.recordPingOrThrow(scope, endpointId, body, now, traceParent);
    } catch (error) {
      if (error instanceof EndpointNotEnabled) return null;
      throw error;
    }
  }

  private recordPingOrThrow(
    scope: Scope,
    endpointId: string,
    body: WebhookEventBody,
    now: Date,
    traceParent: string | null,
  ): Promise<StoredEvent> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.webhookEvent.create({
        data: {
          id: body.id,
          accountId: scope.accountId,
          livemode: scope.livemode,
          type: body.type,
          created: now,
          body: body as unknown as Prisma.InputJsonValue,
          createdAt: now,
          traceParent,
        },
      });
      // Disabled or deleted since the caller checked it: the event is rolled back with the throw.
      if ((await queueDeliveries(tx, body.id, [endpointId], now)).length === 0) throw new EndpointNotEnabled();
      return toStoredEvent(row);
    });
  }

  /** Newest first; `afterId` is the previous page's last event (null when it is not the caller's). */
  async list(
    scope: Scope,
    limit: number,
    afterId: string | undefined,
    filter: EventFilter = {},
  ): Promise<{ events: StoredEvent[]; hasMore: boolean } | null> {
    let beforeSeq: bigint | undefined;
    if (afterId !== undefined) {
      const cursor = await this.prisma.webhookEvent.findFirst({
        where: { id: afterId, accountId: scope.accountId, livemode: scope.livemode, created: createdWhere(filter) },
        select: { seq: true },
      });
      if (!cursor) return null;
      beforeSeq = cursor.seq;
    }
    const rows = await this.prisma.webhookEvent.findMany({
      where: {
        accountId: scope.accountId,
        livemode: scope.livemode,
        created: createdWhere(filter),
        ...(filter.type === undefined ? {} : { type: filter.type }),
        ...(filter.paymentId === undefined ? {} : { paymentId: filter.paymentId }),
        ...(beforeSeq === undefined ? {} : { seq: { lt: beforeSeq } }),
      },
      orderBy: { seq: 'desc' },
      take: limit + 1,
    });
    return { events: rows.slice(0, limit).map(toStoredEvent), hasMore: rows.length > limit };
  }

  /**
   * Oldest first, recorded after `afterId` (absent: from the oldest) and at or before `settledBefore`;
   * null when `afterId` is not the caller's or is older than `notBefore`.
   */
  async listAfter(
    scope: Scope,
    limit: number,
    afterId: string | undefined,
    filter: { readonly notBefore?: Date | undefined; readonly settledBefore: Date },
  ): Promise<{ events: StoredEvent[]; hasMore: boolean } | null> {
    let afterSeq: bigint | undefined;
    if (afterId !== undefined) {
      const cursor = await this.prisma.webhookEvent.findFirst({
        where: { id: afterId, accountId: scope.accountId, livemode: scope.livemode, created: createdWhere(filter) },
        select: { seq: true },
      });
      if (!cursor) return null;
      afterSeq = cursor.seq;
    }
    const rows = await this.prisma.webhookEvent.findMany({
      where: {
        accountId: scope.accountId,
        livemode: scope.livemode,
        created: createdWhere(filter),
        createdAt: { lte: filter.settledBefore },
        ...(afterSeq === undefined ? {} : { seq: { gt: afterSeq } }),
      },
      orderBy: { seq: 'asc' },
      take: limit + 1,
    });
    return { events: rows.slice(0, limit).map(toStoredEvent), hasMore: rows.length > limit };
  }

  /** The id of the scope's newest event created at or after `notBefore`, or null. */
  async latestId(scope: Scope, notBefore: Date | undefined): Promise<string | null> {
    const row = await this.prisma.webhookEvent.findFirst({
      where: { accountId: scope.accountId, livemode: scope.livemode, created: createdWhere({ notBefore }) },
      orderBy: { seq: 'desc' },
      select: { id: true },
    });
    return row?.id ?? null;
  }

  /** One event of the scope created at or after `notBefore` (the public API's retention), or null. */
  async find(scope: Scope, id: string, notBefore?: Date): Promise<StoredEvent | null> {
    const row = await this.prisma.webhookEvent.findFirst({
      where: { id, accountId: scope.accountId, livemode: scope.livemode, created: createdWhere({ notBefore }) },
    });
    return row ? toStoredEvent(row) : null;
  }

  /** Enabled endpoints of the scope whose filter takes `type` now. */
  matching(scope: Scope, type: WebhookEventType): Promise<string[]> {
    return matchingEndpointIds(this.prisma, scope, type);
  }

  /**
   * Queues a new delivery of the event to each endpoint still enabled (the event, and so its evt_ id,
   * is the same); returns the endpoints queued, or null if the event is gone (the log's purge removed
   * it since it was read). FOR KEY SHARE holds the event as the foreign key's check would, but first:
   * the purge (FOR UPDATE SKIP LOCKED) then leaves it alone, or, if it locked it first, we wait and
   * find no row instead of failing on the foreign key.
   */
  resend(eventId: string, endpointIds: readonly string[], now: Date): Promise<string[] | null> {
    return this.prisma.$transaction(async (tx) => {
      const event = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM webhook_events WHERE id = ${eventId} FOR KEY SHARE`;
      if (event.length === 0) return null;
      return queueDeliveries(tx, eventId, endpointIds, now);
    });
  }
}
