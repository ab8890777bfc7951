import { markProcessed } from '@hc/events';
import type { Scope } from '../domain/endpoint.ts';
import { withoutCustomerDetails, type WebhookEventBody } from '../domain/webhook-event.ts';
import { lockPayments, sqlOf } from './events.ts';
import type { Prisma } from './generated/prisma/client.ts';
import type { WebhooksPrisma } from './prisma.ts';

type Tx = Prisma.TransactionClient;

/** A logged request body without the buyer's details; bodies that are not event JSON are left alone. */
export function scrubRequestBody(requestBody: string): string {
  try {
    return JSON.stringify(withoutCustomerDetails(JSON.parse(requestBody) as WebhookEventBody));
  } catch {
    return requestBody;
  }
}

/** Whether the payment's customer was erased (its bodies must carry no customer details). */
export async function isErased(tx: Tx, scope: Scope, paymentId: string): Promise<boolean> {
  return (await tx.erasedPayment.count({ where: { paymentId, accountId: scope.accountId, livemode: scope.livemode } })) > 0;
}

/**
 * The payment's events with their bodies, locked with their deliveries before their logged attempts
 * are read. The events first (FOR NO KEY UPDATE, id order): the retention purge locks an event before
 * its deliveries too, and skips one locked here; an event it deleted meanwhile is simply not
 * returned. Then the deliveries, FOR KEY SHARE: that waits only for a FOR UPDATE holder — a claim
 * logging an interrupted attempt holds its delivery so while it copies the event's body, which it
 * may have read before this erasure — and lets cancels and attempt updates (FOR NO KEY UPDATE) pass.
 * Once the claim has committed, the scrub below sees its log entry. The claim never waits for the
 * payment's advisory lock, so no cycle forms.
 */
async function lockEventsWithDeliveries(tx: Tx, scope: Scope, paymentId: string): Promise<{ id: string; body: Prisma.JsonValue }[]> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM webhook_events
     WHERE payment_id = ${paymentId} AND account_id = ${scope.accountId} AND livemode = ${scope.livemode}
     ORDER BY id FOR NO KEY UPDATE`;
  const ids = locked.map((row) => row.id);
  if (ids.length === 0) return [];
  await tx.$queryRaw`SELECT 1 FROM webhook_deliveries WHERE event_id = ANY(${ids}) ORDER BY id FOR KEY SHARE`;
  return tx.webhookEvent.findMany({ where: { id: { in: ids } }, select: { id: true, body: true }, orderBy: { id: 'asc' } });
}

/** The only code that knows the erased_payments table and rewrites stored bodies. */
export class ErasureStore {
  private readonly prisma: WebhooksPrisma;

  constructor(prisma: WebhooksPrisma) {
    this.prisma = prisma;
  }

  /**
   * Applies a customer erasure once: remembers the payments (so later events of them are made
   * without the details) and removes the details from the stored bodies of their events and the
   * logged bodies of every attempt. Only payments of the erasure's account and mode are touched.
   * Returns the number of events scrubbed, or null when the erasure was applied before.
   */
  async erase(consumer: string, msgId: string, scope: Scope, paymentIds: readonly string[], now: Date): Promise<number | null> {
    return this.prisma.$transaction(
      async (tx) => {
        if (!(await markProcessed(sqlOf(tx), consumer, msgId))) return null;
        let scrubbed = 0;
        // Sorted, so two erasures sharing payments take the locks in the same order. Every payment's
        // advisory lock before any row lock (ADR 0069, decision 3): holding rows of one payment while
        // waiting for another's lock could close a cycle with an attempt or a fan-out of that payment.
        const payments = [...new Set(paymentIds)].sort();
        await lockPayments(tx, payments);
        for (const paymentId of payments) {
          await tx.erasedPayment.createMany({
            data: [{ paymentId, accountId: scope.accountId, livemode: scope.livemode, erasedAt: now }],
            skipDuplicates: true,
          });
          const events = await lockEventsWithDeliveries(tx, scope, paymentId);
          for (const event of events) {
            const body = withoutCustomerDetails(event.body as unknown as WebhookEventBody);
            await tx.webhookEvent.update({ where: { id: event.id }, data: { body: body as unknown as Prisma.InputJsonValue } });
            const attempts = await tx.deliveryAttempt.findMany({ where: { eventId: event.id }, select: { id: true, requestBody: true } });
            for (const attempt of attempts) {
              await tx.deliveryAttempt.update({ where: { id: attempt.id }, data: { requestBody: scrubRequestBody(attempt.requestBody) } });
            }
            scrubbed += 1;
          }
        }
        return scrubbed;
      },
      { timeout: 30_000 },
    );
  }
}
