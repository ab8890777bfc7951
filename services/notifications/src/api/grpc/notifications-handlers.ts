import type { PublicCallContext, ServiceHandlers } from '@hc/grpc';
import type { NotificationsService, ReceiptPolicyService } from '@hc/proto/notifications/v1';
import type { MailRecord } from '../../domain/mail.ts';
import type { NotificationSettings } from '../../domain/settings.ts';
import type { NotificationsDependencies } from '../../use-cases/dependencies.ts';
import { listMails } from '../../use-cases/list-mails.ts';
import { getSettings, receiptPolicy, updateSettings } from '../../use-cases/settings.ts';

const seconds = (date: Date): bigint => BigInt(Math.floor(date.getTime() / 1000));

function settingsMessage(settings: NotificationSettings) {
  return { ...settings, alertAddress: settings.alertAddress ?? '' };
}

function mailMessage(mail: MailRecord) {
  return {
    id: mail.id,
    kind: mail.kind,
    status: mail.status,
    recipient: mail.recipient ?? '',
    subject: mail.subject,
    paymentId: mail.paymentId ?? undefined,
    attempts: mail.attempts,
    lastError: mail.lastError ?? undefined,
    created: seconds(mail.createdAt),
    sentAt: mail.sentAt ? seconds(mail.sentAt) : undefined,
  };
}

/** gRPC handlers: proto in, use case, proto out. Account and mode come from the call's metadata only. */
export function notificationsHandlers(deps: NotificationsDependencies): ServiceHandlers<typeof NotificationsService> {
  return {
    async getNotificationSettings(_request, ctx) {
      return { settings: settingsMessage(await getSettings(deps, ctx)) };
    },
    async updateNotificationSettings(request, ctx) {
      const settings = await updateSettings(deps, ctx, {
        receiptsEnabled: request.receiptsEnabled,
        testReceiptsEnabled: request.testReceiptsEnabled,
        alertAddress: request.alertAddress,
        alertPaymentHeld: request.alertPaymentHeld,
        alertWebhookFailing: request.alertWebhookFailing,
        alertLatePayment: request.alertLatePayment,
      });
      return { settings: settingsMessage(settings) };
    },
    async listMails(request, ctx) {
      const page = await listMails(deps, ctx, request.limit, request.startingAfter ?? null);
      return { mails: page.mails.map(mailMessage), hasMore: page.hasMore };
    },
  };
}

/** The hosted pages' question: says only whether a receipt is sent, nothing of the settings. */
export function receiptPolicyHandlers(deps: NotificationsDependencies): ServiceHandlers<typeof ReceiptPolicyService, PublicCallContext> {
  return {
    async getReceiptPolicy(request) {
      return { receiptsSent: await receiptPolicy(deps, request.accountId, request.livemode) };
    },
  };
}
