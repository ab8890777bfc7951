import { writeOutbox } from '@hc/events';
import { endpointAlert } from '../domain/endpoint-alert.ts';
import type { Prisma } from './generated/prisma/client.ts';

type Tx = Prisma.TransactionClient;

/**
 * Inside the attempt's transaction: queues the endpoint alert the attempt caused, if any, in the
 * outbox (docs/adr/0049), and marks a failing streak alerted so it alerts once. A message id already
 * queued (a retried transaction) is skipped.
 */
export async function queueEndpointAlert(
  tx: Tx,
  endpointId: string,
  justDisabled: boolean,
  now: Date,
  alertAfterMs: number,
): Promise<void> {
  const endpoint = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
  const alert = endpointAlert(endpoint, justDisabled, now, alertAfterMs);
  if (!alert) return;
  if (!justDisabled) await tx.webhookEndpoint.update({ where: { id: endpointId }, data: { failingAlertedAt: now } });
  await writeOutbox(tx, [alert]);
}
