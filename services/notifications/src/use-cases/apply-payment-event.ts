import { normalEmailAddress } from '@hc/conversions';
import { markProcessed } from '@hc/events';
import type { PaymentEvent } from '@hc/proto/checkout/v1/events';
import { ALERTS_SENDER, type NewMail } from '../domain/mail.ts';
import { alertView, receiptView, wantedMails } from '../domain/payment-mails.ts';
import { alertRecipient, receiptsSent } from '../domain/settings.ts';
import type { NotificationsDependencies } from './dependencies.ts';
import { testReceiptRefusal } from './test-receipts.ts';

/** The processed-messages name (and durable) of the payment events consumer. */
export const PAYMENT_EVENTS_CONSUMER = 'notifications_payment_events';

export type ApplyOutcome = { readonly kind: 'applied'; readonly queued: number } | { readonly kind: 'duplicate' };

/**
 * Queues the mails a payment event causes, in the transaction that records the event as processed:
 * both commit or neither, so a redelivered event queues nothing twice; each mail's dedupe key makes
 * a receipt once per payment even across events. The account's settings are read in the same
 * transaction. A receipt goes only to the address on the event's own payment, for its own account;
 * a Test one only to the account's own users, capped per hour (test-receipts.ts).
 */
export async function applyPaymentEvent(deps: NotificationsDependencies, msgId: string, event: PaymentEvent): Promise<ApplyOutcome> {
  const payment = event.payment;
  // Asked before the transaction (a network call holds no row lock); only a payment that may get a receipt.
  const brand =
    payment && wantedMails(event, payment).some((m) => m.kind === 'receipt') ? await deps.brands.brandOf(event.accountId) : undefined;
  const outcome = await deps.sql.transaction(async (client): Promise<ApplyOutcome> => {
    if (!(await markProcessed(client, PAYMENT_EVENTS_CONSUMER, msgId))) return { kind: 'duplicate' };
    if (!payment) return { kind: 'applied', queued: 0 };
    const wanted = wantedMails(event, payment);
    if (wanted.length === 0) return { kind: 'applied', queued: 0 };
    const settings = await deps.settings.get(client, event.accountId);
    let queued = 0;
    for (const { kind, dedupeKey } of wanted) {
      let mail: NewMail | undefined;
      const base = { accountId: event.accountId, livemode: event.livemode, dedupeKey, paymentId: payment.id };
      if (kind === 'receipt') {
        // The platform's one address rule again: an address stored before it (a domain literal, a
        // stray '>') is never mailed.
        const to = payment.customerEmail === undefined ? undefined : normalEmailAddress(payment.customerEmail);
        if (!to || !receiptsSent(settings, event.livemode)) continue;
        // Locked before it is read: an erasure of this buyer either committed already (seen here) or
        // waits for this transaction and then scrubs the receipt it queues.
        await deps.mails.lockPayment(client, payment.id);
        if (await deps.mails.isErased(client, payment.id)) continue;
        const refused = event.livemode ? null : await testReceiptRefusal(deps, client, event.accountId, to);
        const view = receiptView(event, payment, brand);
        mail = {
          ...base,
          kind,
          recipient: to,
          recipientName: payment.customerName ?? null,
          senderName: view.merchantName ?? deps.templates.shopName(view.locale),
          content: deps.templates.receipt(view),
          ...(refused === null ? {} : { canceledBecause: refused }),
        };
      } else if (kind === 'payment_held' || kind === 'late_payment') {
        const to = alertRecipient(settings, kind);
        if (!to) continue;
        mail = {
          ...base,
          kind,
          recipient: to,
          recipientName: null,
          senderName: ALERTS_SENDER,
          content: deps.templates.alert(kind, alertView(event, payment, deps.publicBaseUrl)),
        };
      }
      if (mail && (await deps.mails.queue(client, mail))) queued += 1;
    }
    return { kind: 'applied', queued };
  });
  if (outcome.kind === 'applied' && outcome.queued > 0) deps.wakeWorker();
  return outcome;
}
