import { deleteDeliveriesOf } from './delivery-writes.ts';
import type { WebhooksPrisma } from './prisma.ts';

// Events per transaction: each one locks its events and deletes their deliveries and attempts.
const PURGE_SLICE = 500;

/**
 * The only code that deletes from the delivery log (docs/personal-data.md): an event, its deliveries
 * and their attempts go together once the event is older than the log window and none of its
 * deliveries is still pending or in flight (an event still being delivered is never removed, however
 * old). Erased payments' markers stay: they hold ids only, and keep later events of those payments
 * free of the buyer's details.
 */
export class DeliveryLogRetention {
  private readonly prisma: WebhooksPrisma;

  constructor(prisma: WebhooksPrisma) {
    this.prisma = prisma;
  }

  /** Deletes events created more than `olderThanMs` ago with everything logged about them; returns how many events. */
  async purge(olderThanMs: number): Promise<number> {
    let total = 0;
    for (;;) {
      const slice = await this.prisma.$transaction(async (tx) => {
        // FOR UPDATE: a resend (which adds a delivery, taking the event FOR KEY SHARE first) of one of
        // these waits, then finds the event gone; SKIP LOCKED leaves one being resent for the next run.
        const candidates = await tx.$queryRaw<{ id: string }[]>`
          SELECT e.id FROM webhook_events e
           WHERE e.created_at < now() - ${olderThanMs} * interval '1 millisecond'
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                              WHERE d.event_id = e.id AND d.status IN ('pending', 'delivering'))
           ORDER BY e.seq
           LIMIT ${PURGE_SLICE}
           FOR UPDATE OF e SKIP LOCKED`;
        if (candidates.length === 0) return { looked: 0, deleted: 0 };
        // A resend that committed after that statement's snapshot but before its lock is not seen by
        // it (PostgreSQL re-reads a locked row only if it changed, and a resend only locks it). Under
        // our locks no delivery can be added any more, so a fresh look now is the final word.
        const reopened = await tx.$queryRaw<{ eventId: string }[]>`
          SELECT DISTINCT d.event_id AS "eventId" FROM webhook_deliveries d
           WHERE d.event_id = ANY(${candidates.map((row) => row.id)}::text[])
             AND d.status IN ('pending', 'delivering')`;
        const keep = new Set(reopened.map((row) => row.eventId));
        const ids = candidates.map((row) => row.id).filter((id) => !keep.has(id));
        await tx.deliveryAttempt.deleteMany({ where: { eventId: { in: ids } } });
        await deleteDeliveriesOf(tx, ids);
        await tx.webhookEvent.deleteMany({ where: { id: { in: ids } } });
        return { looked: candidates.length, deleted: ids.length };
      });
      total += slice.deleted;
      if (slice.looked < PURGE_SLICE) return total;
    }
  }
}
