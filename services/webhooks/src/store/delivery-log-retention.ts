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
      const deleted = await this.prisma.$transaction(async (tx) => {
        // FOR UPDATE: a resend (which adds a delivery) of one of these waits, then finds it gone.
        const doomed = await tx.$queryRaw<{ id: string }[]>`
          SELECT e.id FROM webhook_events e
           WHERE e.created_at < now() - ${olderThanMs} * interval '1 millisecond'
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                              WHERE d.event_id = e.id AND d.status IN ('pending', 'delivering'))
           ORDER BY e.seq
           LIMIT ${PURGE_SLICE}
           FOR UPDATE OF e SKIP LOCKED`;
        const ids = doomed.map((row) => row.id);
        if (ids.length === 0) return 0;
        await tx.deliveryAttempt.deleteMany({ where: { eventId: { in: ids } } });
        await tx.webhookDelivery.deleteMany({ where: { eventId: { in: ids } } });
        await tx.webhookEvent.deleteMany({ where: { id: { in: ids } } });
        return ids.length;
      });
      total += deleted;
      if (deleted < PURGE_SLICE) return total;
    }
  }
}
