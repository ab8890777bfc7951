import type { CallContext, ServiceClient } from '@hc/grpc';
import type { NotificationsService } from '@hc/proto/notifications/v1';
import { unixSecondsBig } from '@hc/conversions';
import type { InvitationMailer } from '../use-cases/change-team.ts';

/**
 * Invitations go to the notifications context over its gRPC API, with the caller's account and mode
 * (docs/adr/0059): it queues the mail in its outbox and keeps the link sealed until sent.
 */
export function invitationMailer(notifications: ServiceClient<typeof NotificationsService>, ctx: CallContext): InvitationMailer {
  return {
    async send(invitation) {
      await notifications.sendInvitation(
        {
          invitationId: invitation.id,
          recipient: invitation.recipient,
          role: invitation.role,
          invitedBy: invitation.invitedBy,
          // The link goes only to the person it is for: an address in use gets a mail without it.
          link: invitation.addressInUse ? '' : invitation.link,
          expires: unixSecondsBig(invitation.expiresAt),
          addressInUse: invitation.addressInUse,
        },
        ctx,
      );
    },
  };
}
