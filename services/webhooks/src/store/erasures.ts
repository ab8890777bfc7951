import { markProcessed } from '@hc/events';
import type { Scope } from '../domain/endpoint.ts';
import { withoutCustomerDetails, type WebhookEventBody } from '../domain/webhook-event.ts';
import { lockPayment, sqlOf } from './events.ts';
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
 * Locks the deliveries of these events before their logged attempts are read. A claim that is
 * logging an interrupted attempt holds its delivery's row while it copies the event's body, which
 * it may have read before this erasure: waiting for that claim to commit lets the scrub below see
 * (and clean) its log entry. The claim never waits for the payment's lock, so the lock order of
 * ADR 0069 (the payment's advisory lock before delivery rows) holds.
 */
async function lockDeliveriesOf(tx: Tx, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await tx.$queryRaw`SELECT 1 FROM webhook_deliveries WHERE event_id = ANY(${eventIds}) ORDER BY id FOR UPDATE`;
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
        // Sorted, so two erasures sharing payments take the locks in the same order.
        for (const paymentId of [...new Set(paymentIds)].sort()) {
          await lockPayment(tx, paymentId);
          await tx.erasedPayment.createMany({
            data: [{ paymentId, accountId: scope.accountId, livemode: scope.livemode, erasedAt: now }],
            skipDuplicates: true,
          });
          const events = await tx.webhookEvent.findMany({
            where: { paymentId, accountId: scope.accountId, livemode: scope.livemode },
            select: { id: true, body: true },
          });
          await lockDeliveriesOf(
            tx,
            events.map((e) => e.id),
          );
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
