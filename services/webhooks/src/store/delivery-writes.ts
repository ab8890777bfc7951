/**
 * The changes of webhook_deliveries made inside a larger transaction, in SQL like the fan-out's insert
 * (events.ts) and the worker's claim (deliveries.ts): the table has one way in (docs/adr/0084).
 */
import type { Prisma } from './generated/prisma/client.ts';

type Tx = Prisma.TransactionClient;

/** The delivery an attempt was made for, while the attempt still holds it (its claim is the latest). */
export interface ClaimedDelivery {
  readonly deliveryId: string;
  readonly attemptNumber: number;
}

/** Ends the delivery (`succeeded` or `failed`) if the attempt still holds it. */
export async function finishDelivery(tx: Tx, claim: ClaimedDelivery, status: 'succeeded' | 'failed', at: Date): Promise<void> {
  await tx.$executeRaw`
    UPDATE webhook_deliveries SET status = ${status}, completed_at = ${at}::timestamptz, lease_expires_at = NULL
     WHERE id = ${claim.deliveryId} AND status = 'delivering' AND attempt_count = ${claim.attemptNumber}::int`;
}

/** Puts the delivery back to pending for its next attempt, if the attempt still holds it. */
export async function rescheduleDelivery(tx: Tx, claim: ClaimedDelivery, nextAttemptAt: Date): Promise<void> {
  await tx.$executeRaw`
    UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ${nextAttemptAt}::timestamptz, lease_expires_at = NULL
     WHERE id = ${claim.deliveryId} AND status = 'delivering' AND attempt_count = ${claim.attemptNumber}::int`;
}

/** Stops an endpoint's unfinished deliveries: a disabled or deleted endpoint is sent nothing more. */
export async function cancelOpenDeliveries(tx: Tx, endpointId: string, now: Date): Promise<void> {
  await tx.$executeRaw`
    UPDATE webhook_deliveries SET status = 'canceled', completed_at = ${now}::timestamptz, lease_expires_at = NULL
     WHERE endpoint_id = ${endpointId} AND status IN ('pending', 'delivering')`;
}

/** Deletes the deliveries of these events (the delivery log's purge). */
export async function deleteDeliveriesOf(tx: Tx, eventIds: readonly string[]): Promise<void> {
  await tx.$executeRaw`DELETE FROM webhook_deliveries WHERE event_id = ANY(${[...eventIds]}::text[])`;
}
