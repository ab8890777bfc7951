import { ApiError } from '@hc/errors';
import { normalEmail } from '../domain/credentials.ts';
import type { Role } from '../domain/roles.ts';
import type { TeamMember } from '../domain/team-member.ts';
import { createUser, type CreatedUser } from './create-user.ts';
import type { DashboardDependencies } from './dependencies.ts';

/**
 * Hands an invitation mail to the notifications context (adapters/invitation-mailer.ts). With
 * `addressInUse` the mail tells the address's owner, without the link (docs/adr/0082).
 */
export interface InvitationMailer {
  send(invitation: {
    id: string;
    recipient: string;
    role: Role;
    invitedBy: string;
    link: string;
    expiresAt: Date;
    addressInUse: boolean;
  }): Promise<void>;
}

/** How an invitation reached the person: mailed, or (the mail refused) a link for the owner to pass on. */
export type Invitation =
  | { readonly user: CreatedUser['user']; readonly expiresAt: Date; readonly emailed: true }
  | { readonly user: CreatedUser['user']; readonly expiresAt: Date; readonly emailed: false; readonly link: string };

/**
 * The owner invites a person by email with a role: a user without a password and a one-time link to
 * set one (24 hours, stored hashed), mailed through the notifications context (docs/adr/0059). The
 * link is never stored here in clear nor logged. When the mail cannot be queued (the notifications
 * service down or without keys), the user exists and the answer shows the link to the owner once,
 * saying why, so the owner is never left believing a mail went. email_taken only when this account
 * already has a user with the address (which its team page shows anyway).
 */
export async function inviteTeammate(
  deps: DashboardDependencies,
  mailer: InvitationMailer,
  accountId: string,
  input: { email: string; role: Role; invitedBy: string },
): Promise<Invitation> {
  const email = normalEmail(input.email);
  if (!email) throw new ApiError('invalid_email', undefined, 'email');
  // Another account's user signs in with this address: the invitation is made and answered as any
  // other (the inviter must not learn the address has a dashboard user), and the mail tells the
  // address's owner instead of carrying a link. The invited user expires with its link (docs/adr/0082).
  const holder = await deps.users.userByEmail(email);
  const addressInUse = holder !== null && holder.accountId !== accountId;
  const created = await createUser(deps, { accountId, email, password: null, role: input.role, invitation: true });
  const link = created.setPassword!;
  const invitation = {
    id: `${created.user.id}:${link.linkId}`,
    recipient: created.user.email,
    role: input.role,
    invitedBy: input.invitedBy,
  };
  try {
    await mailer.send({ ...invitation, link: link.url, expiresAt: link.expiresAt, addressInUse });
    return { user: created.user, expiresAt: link.expiresAt, emailed: true };
  } catch {
    // The reason stays out of the answer and the logs alike: a gRPC error could echo the request.
    return { user: created.user, expiresAt: link.expiresAt, emailed: false, link: link.url };
  }
}

function refused(outcome: TeamMember | 'not_found' | 'last_owner'): TeamMember {
  if (outcome === 'not_found') throw new ApiError('not_found');
  if (outcome === 'last_owner')
    throw new ApiError('invalid_request', 'An account keeps at least one owner: make someone else owner first.', 'role');
  return outcome;
}

/** The account's users, oldest first; one of them (null: not of this account). */
export function listTeam(deps: DashboardDependencies, accountId: string): Promise<TeamMember[]> {
  return deps.team.members(accountId, deps.now());
}

export function teammate(deps: DashboardDependencies, accountId: string, userId: string): Promise<TeamMember | null> {
  return deps.team.member(accountId, userId, deps.now());
}

/** Another role for a user of the account; the member as it was (for the audit log's before → after). */
export async function changeRole(deps: DashboardDependencies, accountId: string, userId: string, role: Role): Promise<TeamMember> {
  return refused(await deps.team.change(accountId, userId, role));
}

/** Removes a user of the account: every session of theirs ends at once (the next request is signed out). */
export async function removeTeammate(deps: DashboardDependencies, accountId: string, userId: string): Promise<TeamMember> {
  return refused(await deps.team.change(accountId, userId, null));
}
