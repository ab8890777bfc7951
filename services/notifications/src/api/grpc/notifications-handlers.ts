import { unixSecondsBig } from '@hc/conversions';
import type { PublicCallContext, ServiceHandlers } from '@hc/grpc';
import type { NotificationsService, ReceiptPolicyService } from '@hc/proto/notifications/v1';
import type { MailRecord } from '../../domain/mail.ts';
import type { NotificationSettings } from '../../domain/settings.ts';
import type { NotificationsDependencies } from '../../use-cases/dependencies.ts';
import { listMails } from '../../use-cases/list-mails.ts';
import { sendInvitation } from '../../use-cases/send-invitation.ts';
import { getSettings, receiptPolicy, updateSettings } from '../../use-cases/settings.ts';

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
    created: unixSecondsBig(mail.createdAt),
    sentAt: mail.sentAt ? unixSecondsBig(mail.sentAt) : undefined,
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
    async sendInvitation(request, ctx) {
      const { invitationId, recipient, role, invitedBy, link, addressInUse } = request;
      const expiresAt = new Date(Number(request.expires) * 1000);
      return { mailId: await sendInvitation(deps, ctx, { invitationId, recipient, role, invitedBy, link, expiresAt, addressInUse }) };
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
