import type { CallContext } from '@hc/grpc';
import { ApiError } from '@hc/errors';
import { normalEmailAddress } from '@hc/conversions';
import { INVITATION_ROLES, invitationView } from '../domain/invitation-mails.ts';
import { sealedLinkContext } from '../store/mail-store.ts';
import type { NotificationsDependencies } from './dependencies.ts';

export interface InvitationRequest {
  readonly invitationId: string;
  readonly recipient: string;
  readonly role: string;
  readonly invitedBy: string;
  /** The one-time link: a secret, sealed here and opened only by the worker on the way to SMTP. */
  readonly link: string;
  readonly expiresAt: Date;
  /** The address signs in to another account's dashboard: its owner is told instead, with no link. */
  readonly addressInUse: boolean;
}

/** Only a dashboard's set-password page with a token: the mail carries no other kind of link. */
function linkProblem(link: string): boolean {
  return !/^https?:\/\/[^\s/?#]+\/dashboard\/set-password\?token=[A-Za-z0-9_-]{16,200}$/.test(link);
}

/**
 * Queues the dashboard's invitation mail (docs/adr/0059). The dashboard owns the user and the link;
 * this context delivers it like every mail (outbox row, leased worker), with the link sealed until
 * sent. An address that already signs in elsewhere gets a mail saying so instead, without a link
 * (docs/adr/0082). One mail per invitation id: a repeated call (the dashboard retrying after a lost answer)
 * answers the mail queued the first time.
 */
export async function sendInvitation(deps: NotificationsDependencies, ctx: CallContext, request: InvitationRequest): Promise<string> {
  const links = deps.links;
  if (!links)
    throw new ApiError('unavailable', 'Invitations cannot be mailed here: no encryption keys to keep the link sealed until sent.');
  if (!/^[A-Za-z0-9_:-]{1,100}$/.test(request.invitationId))
    throw new ApiError('invalid_request', 'invitation_id is missing or malformed.', 'invitation_id');
  const recipient = normalEmailAddress(request.recipient);
  if (!recipient) throw new ApiError('invalid_email', 'recipient must be an email address.', 'recipient');
  if (!INVITATION_ROLES.includes(request.role))
    throw new ApiError('invalid_request', 'role must be owner, admin, developer or viewer.', 'role');
  if (request.addressInUse ? request.link !== '' : linkProblem(request.link))
    throw new ApiError('invalid_url', 'link must be a dashboard set-password link, and empty when the address is in use.', 'link');
  const invitedBy = normalEmailAddress(request.invitedBy) ?? 'The account owner';
  const view = invitationView({ recipient, role: request.role, invitedBy, expiresAt: request.expiresAt });
  // Same kind, same dedupe key, same keys required: the inviter's mail log and answer are the same
  // whether or not the address already has a dashboard user (docs/adr/0082).
  const content = request.addressInUse ? deps.templates.invitationAddressInUse(view) : deps.templates.invitation(view);
  const mailId = await deps.mails.queueSealed(
    deps.sql.pool,
    {
      accountId: ctx.accountId,
      livemode: ctx.livemode,
      kind: 'invitation',
      dedupeKey: `invitation:${request.invitationId}`,
      paymentId: null,
      recipient,
      recipientName: null,
      senderName: 'Merchant dashboard',
      content,
    },
    request.addressInUse ? null : (id) => links.seal(request.link, sealedLinkContext(id)),
  );
  deps.wakeWorker();
  return mailId;
}
