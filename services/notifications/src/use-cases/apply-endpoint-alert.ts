import { markProcessed } from '@hc/events';
import type { EndpointAlert } from '@hc/proto/webhooks/v1/events';
import { endpointAlertView } from '../domain/endpoint-mails.ts';
import { ALERTS_SENDER } from '../domain/mail.ts';
import { alertRecipient } from '../domain/settings.ts';
import type { NotificationsDependencies } from './dependencies.ts';

/** The processed-messages name (and durable) of the webhooks alerts consumer. */
export const ENDPOINT_ALERTS_CONSUMER = 'notifications_webhook_alerts';

/**
 * A webhook endpoint failing for long or disabled (the webhooks context's `webhooks.endpoint.*`,
 * docs/adr/0049): one mail to the account's alert address when it wants webhook alerts, queued in
 * the transaction that records the event processed. Returns whether a mail was queued.
 */
export async function applyEndpointAlert(deps: NotificationsDependencies, msgId: string, event: EndpointAlert): Promise<boolean> {
  const queued = await deps.sql.transaction(async (client) => {
    if (!(await markProcessed(client, ENDPOINT_ALERTS_CONSUMER, msgId))) return false;
    const to = alertRecipient(await deps.settings.get(client, event.accountId), 'webhook_failing');
    if (!to) return false;
    return deps.mails.queue(client, {
      accountId: event.accountId,
      livemode: event.livemode,
      kind: 'webhook_failing',
      dedupeKey: `webhook_failing:${msgId}`,
      paymentId: null,
      recipient: to,
      recipientName: null,
      senderName: ALERTS_SENDER,
      content: deps.templates.endpoint(endpointAlertView(event, deps.publicBaseUrl)),
    });
  });
  if (queued) deps.wakeWorker();
  return queued;
}
