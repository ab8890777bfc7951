import { markProcessed, type SqlClient } from '@hc/events';
import { newId } from '@hc/ids';
import type { Scope } from '../domain/endpoint.ts';
import { filterMatches, type WebhookEventType } from '../domain/event-types.ts';
import { withoutCustomerDetails, type WebhookEventBody } from '../domain/webhook-event.ts';
import type { Prisma } from './generated/prisma/client.ts';
import type { WebhooksPrisma } from './prisma.ts';

type Tx = Prisma.TransactionClient;
type Row = Prisma.WebhookEventGetPayload<object>;

export interface StoredEvent {
  readonly id: string;
  readonly accountId: string;
  readonly livemode: boolean;
  readonly type: WebhookEventType;
  readonly paymentId: string | null;
  readonly body: WebhookEventBody;
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
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('hc-webhooks-payment'), hashtext(${paymentId}))`;
}

/** Queues a delivery of `eventId` to each endpoint, due at once. */
export async function queueDeliveries(tx: Tx, eventId: string, endpointIds: readonly string[], now: Date): Promise<void> {
  if (endpointIds.length === 0) return;
  await tx.webhookDelivery.createMany({
    data: endpointIds.map((endpointId) => ({
      id: newId('webhookDelivery', now.getTime()),
      eventId,
      endpointId,
      status: 'pending',
      nextAttemptAt: now,
      createdAt: now,
    })),
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
  readonly body: WebhookEventBody;
}

/** The only code that knows the webhook_events table (and queues the deliveries an event fans out to). */
export class EventStore {
  private readonly prisma: WebhooksPrisma;

  constructor(prisma: WebhooksPrisma) {
    this.prisma = prisma;
  }

  /**
   * Records the webhook event of a source event and queues its deliveries, in one transaction with
   * the consumer's processed-message mark: applied once however often JetStream delivers it. A
   * payment whose customer was erased gets its event without the customer's details. Returns the
   * number of deliveries queued, or null for a source event already applied.
   */
  async recordPaymentEvent(consumer: string, event: NewPaymentEvent, now: Date): Promise<number | null> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await markProcessed(sqlOf(tx), consumer, event.sourceMsgId))) return null;
      await lockPayment(tx, event.paymentId);
      const erased = await tx.erasedPayment.findFirst({
        where: { paymentId: event.paymentId, accountId: event.scope.accountId, livemode: event.scope.livemode },
      });
      const body = erased ? withoutCustomerDetails(event.body) : event.body;
      const { count } = await tx.webhookEvent.createMany({
        data: [
          {
            id: body.id,
            accountId: event.scope.accountId,
            livemode: event.scope.livemode,
            type: body.type,
            sourceMsgId: event.sourceMsgId,
            paymentId: event.paymentId,
            created: new Date(body.created * 1000),
            body: body as unknown as Prisma.InputJsonValue,
            createdAt: now,
          },
        ],
        // The derived evt_ id and the unique source_msg_id: a second copy of the source event (one the
        // processed-message record no longer remembers) still makes no second webhook event.
        skipDuplicates: true,
      });
      if (count === 0) return 0;
      const endpointIds = await matchingEndpointIds(tx, event.scope, body.type);
      await queueDeliveries(tx, body.id, endpointIds, now);
      return endpointIds.length;
    });
  }

  /** Records a ping event and its one delivery. */
  async recordPing(scope: Scope, endpointId: string, body: WebhookEventBody, now: Date): Promise<StoredEvent> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.webhookEvent.create({
        data: {
          id: body.id,
          accountId: scope.accountId,
          livemode: scope.livemode,
          type: body.type,
          created: new Date(body.created * 1000),
          body: body as unknown as Prisma.InputJsonValue,
          createdAt: now,
        },
      });
      await queueDeliveries(tx, body.id, [endpointId], now);
      return toStoredEvent(row);
    });
  }

  async find(scope: Scope, id: string): Promise<StoredEvent | null> {
    const row = await this.prisma.webhookEvent.findFirst({ where: { id, accountId: scope.accountId, livemode: scope.livemode } });
    return row ? toStoredEvent(row) : null;
  }

  /** Newest first; `afterId` is the previous page's last event (null when it is not the caller's). */
  async list(scope: Scope, limit: number, afterId: string | undefined): Promise<{ events: StoredEvent[]; hasMore: boolean } | null> {
    let beforeSeq: bigint | undefined;
    if (afterId !== undefined) {
      const cursor = await this.prisma.webhookEvent.findFirst({
        where: { id: afterId, accountId: scope.accountId, livemode: scope.livemode },
        select: { seq: true },
      });
      if (!cursor) return null;
      beforeSeq = cursor.seq;
    }
    const rows = await this.prisma.webhookEvent.findMany({
      where: { accountId: scope.accountId, livemode: scope.livemode, ...(beforeSeq === undefined ? {} : { seq: { lt: beforeSeq } }) },
      orderBy: { seq: 'desc' },
      take: limit + 1,
    });
    return { events: rows.slice(0, limit).map(toStoredEvent), hasMore: rows.length > limit };
  }

  /** Enabled endpoints of the scope whose filter takes `type` now. */
  matching(scope: Scope, type: WebhookEventType): Promise<string[]> {
    return matchingEndpointIds(this.prisma, scope, type);
  }

  /** Queues a new delivery of the event to each endpoint (the event, and so its evt_ id, is the same). */
  async resend(eventId: string, endpointIds: readonly string[], now: Date): Promise<void> {
    await this.prisma.$transaction((tx) => queueDeliveries(tx, eventId, endpointIds, now));
  }
}
